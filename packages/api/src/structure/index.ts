// The structural check at the boundary: checkStructure and its errors, options and cache.
export {
  type CheckStructureOptions,
  checkStructure,
  createStructureCache,
  type ObservedListMemo,
  type StructureCache,
  structureBuiltinKinds,
} from './checkStructure';
export type { CompiledSchemas } from './compiledSchema';
export { jsonTypeName, type StructureError, type StructureErrorType } from './errors';
export { k8sDefinitions } from './k8sDefinitions.generated';
export { TOTAL_ANNOTATION_SIZE_LIMIT_BYTES } from './metadataSyntax';
