// Server-side apply and field ownership (managedFields) for `kruise-ts serve`: field sets and
// their fieldsV1 form, the structure of each resource (list keys from the schemas), apply with
// conflicts and force, and the Update entries of ordinary writes.
export { type ApplyRequest, type ApplyResult, LAST_APPLIED, serverSideApply } from './apply';
export { decodeEntries, describeManager, type ManagerEntry } from './entries';
export { type FieldSet, fromFieldsV1, pathString, toFieldsV1 } from './fieldSet';
export { type FieldType, resourceType } from './listKeys';
export { recordUpdate, type UpdateRequest } from './update';
export { compare, fieldSetOf, merge } from './walk';
