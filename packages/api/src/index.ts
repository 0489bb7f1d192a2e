// @kruise-ts/api: Kruise CRD types, defaulting, well-known keys and the manifest reader.
export * from './meta';
export * from './constants';
