// placeholder: the in-place update protocol (spec/core.md §1, §2)
export {};
