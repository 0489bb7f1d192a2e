// The descriptor tests' cluster: core's frozen reader (a reconcile or hook that mutated what it
// read would throw), under the names these tests use.
export { deepFreeze, frozenReader as memoryReader } from '@kruise-ts/core/testing';
