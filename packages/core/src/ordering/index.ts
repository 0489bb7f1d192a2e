// placeholder: update and deletion orderings (spec/core.md §4, R7.3)
export {};
