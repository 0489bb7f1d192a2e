// The type of a schema node: an openAPIV3Schema object as a CRD holds it (`type`, `properties`,
// `items`, `x-kubernetes-int-or-string`, ...), or a `{ $ref: 'Name' }` to a generated Kubernetes
// definition. Its own file so that the generated definitions, the DSL and the walk share it
// without importing one another.

/** One schema node. */
export type JSONSchema = Record<string, unknown>;
