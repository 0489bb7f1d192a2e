// The in-place update protocol (spec/core.md §1, §2): re-exports of inplace/*.ts.
export * from './annotations';
export * from './calculate';
export * from './completion';
export * from './diff';
export * from './patch';
export * from './update';
