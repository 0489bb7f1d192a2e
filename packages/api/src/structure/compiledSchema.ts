// Schema nodes compiled once into checkers for the structural walk (walk.ts). A schema node as
// the CRDs and the generated Kubernetes definitions hold it is a plain record: reading it means
// resolving `$ref`s (a definition merged with the keys beside its reference), testing which
// keywords are present, compiling patterns. A CompiledNode does that once: its JSON type as a
// small number, its enum as a set, its pattern as a RegExp, its children compiled on first use.
//
// The compiled nodes live in a CompiledSchemas object the caller owns (a StructureCache holds
// one; a call without a cache compiles into a fresh one, used once), never in module state. Each
// compiled root also remembers, per walk mode, the last version of an object found clean, by
// that object's `spec` (see walk.ts): the memory is dropped with the cache.
import type { JSONSchema } from './jsonSchema';
import { k8sDefinition } from './k8sRefs';

/** What a node checks: the JSON type it wants, or a special case. */
export const NodeKind = {
  /** No type: anything goes (an open node without `type`). */
  any: 0,
  object: 1,
  array: 2,
  string: 3,
  integer: 4,
  number: 5,
  boolean: 6,
  /** `x-kubernetes-int-or-string`: an IntOrString, or a Quantity when it has a pattern. */
  intOrString: 7,
  /** A `$ref` to a definition the generator did not produce: an error wherever it is met. */
  unknownRef: 8,
} as const;

/** One of {@link NodeKind}'s values. */
export type NodeKindValue = (typeof NodeKind)[keyof typeof NodeKind];

/** The keywords a walk reads; a `$ref` with only other keys beside it is its definition as is. */
const CHECKED_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'format',
  'enum',
  'pattern',
  'properties',
  'additionalProperties',
  'items',
  'required',
  'nullable',
  'x-kubernetes-int-or-string',
  'x-kubernetes-preserve-unknown-fields',
]);

/** The index of a walk mode: `observed`, `admission`, a Namespace root. */
export function walkMode(observed: boolean, admission: boolean, nameIsLabel: boolean): number {
  return (observed ? 4 : 0) | (admission ? 2 : 0) | (nameIsLabel ? 1 : 0);
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** A schema node compiled for the walk. Build with {@link CompiledSchemas}. */
export class CompiledNode {
  readonly kind: NodeKindValue;
  /** `null` is accepted. */
  readonly nullable: boolean;
  /** The type word of a type error at this node (`integer`, `integer,string`, `object`). */
  readonly expected: string;
  /** The node is a `$ref: ObjectMeta`: the metadata syntax is checked there too. */
  readonly isObjectMeta: boolean;
  /** The `$ref` value, for an unknown reference's error. */
  readonly ref: unknown;
  /** Object: unknown fields are let through (`x-kubernetes-preserve-unknown-fields`). */
  readonly open: boolean;
  /** Object: the required field names, in the schema's order. */
  readonly required: readonly string[];
  /** String: the enum values, when the schema lists them (as written, for the error). */
  readonly enumValues: readonly unknown[] | undefined;
  private readonly enumSet: ReadonlySet<unknown> | undefined;
  /** String: `format: date-time`. */
  readonly dateTime: boolean;
  /** String or int-or-string: the pattern as written, and compiled. */
  readonly pattern: string | undefined;
  readonly patternRe: RegExp | undefined;
  /** Integer: `format: int32` (otherwise a safe integer); int-or-string: no pattern. */
  readonly int32: boolean;

  private readonly propSchemas: Record<string, JSONSchema> | undefined;
  private readonly props = new Map<string, CompiledNode>();
  private readonly additionalSchema: JSONSchema | undefined;
  private additionalNode: CompiledNode | undefined;
  private readonly itemsSchema: JSONSchema | undefined;
  private itemsNode: CompiledNode | undefined;

  constructor(
    private readonly schemas: CompiledSchemas,
    s: JSONSchema,
    ref: unknown,
    unknownRef: boolean,
  ) {
    this.ref = ref;
    this.isObjectMeta = ref === 'ObjectMeta';
    const intOrString = s['x-kubernetes-int-or-string'] === true;
    this.kind = unknownRef ? NodeKind.unknownRef : intOrString ? NodeKind.intOrString : kindOf(s.type);
    this.nullable = s.nullable === true;
    this.expected = intOrString ? 'integer,string' : typeof s.type === 'string' ? s.type : 'object';
    this.open = s['x-kubernetes-preserve-unknown-fields'] === true;
    this.required = Array.isArray(s.required) ? s.required.filter((r) => typeof r === 'string') : [];
    this.enumValues = Array.isArray(s.enum) ? s.enum : undefined;
    this.enumSet = this.enumValues && new Set(this.enumValues);
    this.dateTime = s.format === 'date-time';
    this.pattern = typeof s.pattern === 'string' ? s.pattern : undefined;
    this.patternRe = this.pattern === undefined ? undefined : schemas.regExp(this.pattern);
    this.int32 = intOrString ? this.pattern === undefined : s.format === 'int32';
    this.propSchemas = isRecord(s.properties) ? (s.properties as Record<string, JSONSchema>) : undefined;
    this.additionalSchema = isRecord(s.additionalProperties)
      ? (s.additionalProperties as JSONSchema)
      : undefined;
    this.itemsSchema = isRecord(s.items) ? (s.items as JSONSchema) : undefined;
  }

  /** String: whether `value` is one of the enum values (true without an enum). */
  inEnum(value: string): boolean {
    return this.enumSet === undefined || this.enumSet.has(value);
  }

  /** Object: the node of declared field `key`, or undefined when the schema does not declare it. */
  prop(key: string): CompiledNode | undefined {
    const known = this.props.get(key);
    if (known !== undefined || this.propSchemas === undefined || !Object.hasOwn(this.propSchemas, key)) {
      return known;
    }
    const node = this.schemas.node(this.propSchemas[key]);
    this.props.set(key, node);
    return node;
  }

  /** Object: the node of the fields it does not declare (`additionalProperties`), if any. */
  additional(): CompiledNode | undefined {
    if (this.additionalNode === undefined && this.additionalSchema !== undefined) {
      this.additionalNode = this.schemas.node(this.additionalSchema);
    }
    return this.additionalNode;
  }

  /** Array: the node of its entries, if the schema says. */
  items(): CompiledNode | undefined {
    if (this.itemsNode === undefined && this.itemsSchema !== undefined) {
      this.itemsNode = this.schemas.node(this.itemsSchema);
    }
    return this.itemsNode;
  }
}

function kindOf(type: unknown): NodeKindValue {
  switch (type) {
    case 'object':
      return NodeKind.object;
    case 'array':
      return NodeKind.array;
    case 'string':
      return NodeKind.string;
    case 'integer':
      return NodeKind.integer;
    case 'number':
      return NodeKind.number;
    case 'boolean':
      return NodeKind.boolean;
    default:
      return NodeKind.any;
  }
}

/**
 * A root schema compiled (a kind at one version), with the objects found clean against it: per
 * walk mode, the last clean object that had a given `spec` (by identity). A new version of an
 * object that keeps its spec (a status write, a label patch) is walked beside that version and
 * only along what changed; a weak map, so a version is forgotten with its `spec`. A spec is the
 * key because it is what writes to an object most often leave as it was; remembering more keys
 * (its status too) costs a weak-map entry per version, more than the walks it would save.
 */
export class CompiledRoot {
  private readonly cleanBy: (WeakMap<object, object> | undefined)[] = [];

  constructor(readonly node: CompiledNode) {}

  /** The clean versions of walk mode `mode`, by their `spec`. */
  cleanVersions(mode: number): WeakMap<object, object> {
    let m = this.cleanBy[mode];
    if (m === undefined) {
      m = new WeakMap();
      this.cleanBy[mode] = m;
    }
    return m;
  }
}

/**
 * The compiled schemas of one cache: root schemas per kind and version, the Kubernetes
 * definitions per name, patterns, and the keys of remembered results. Created by
 * createStructureCache (or by checkStructure for one call).
 */
export class CompiledSchemas {
  private readonly roots = new Map<string, CompiledRoot>();
  private readonly byRef = new Map<string, CompiledNode>();
  private readonly patterns = new Map<string, RegExp>();
  private readonly resultKeys = new Map<string, readonly string[]>();

  /** The compiled root of `key` (a kind and version), built from `schema()` the first time. */
  root(key: string, schema: () => JSONSchema): CompiledRoot {
    let root = this.roots.get(key);
    if (root === undefined) {
      root = new CompiledRoot(this.node(schema()));
      this.roots.set(key, root);
    }
    return root;
  }

  /**
   * The compiled form of `s`. A `$ref` to a definition is its definition, shared by every
   * reference to the same name; keys beside the reference that a walk reads refine it (e.g.
   * `required: []` where a UnitedDeployment subset's workload spec takes its selector from the
   * UnitedDeployment), and make a node of their own.
   */
  node(s: JSONSchema): CompiledNode {
    const ref = s.$ref;
    if (ref === undefined) return new CompiledNode(this, s, undefined, false);
    const def = k8sDefinition(ref);
    if (!def) return new CompiledNode(this, {}, ref, true);
    const refines = Object.keys(s).some((k) => k !== '$ref' && CHECKED_KEYWORDS.has(k));
    if (refines) return new CompiledNode(this, { ...def, ...s, $ref: undefined }, ref, false);
    const name = ref as string; // k8sDefinition found it, so it is a string
    let node = this.byRef.get(name);
    if (node === undefined) {
      node = new CompiledNode(this, def, ref, false);
      this.byRef.set(name, node);
    }
    return node;
  }

  /**
   * The key of a result in StructureCache.results, `<kind>/<observed>/<admission>`: the same
   * string every time, so a lookup of a remembered answer builds nothing and hashes nothing anew.
   */
  resultKey(kind: string, observed: boolean, admission: boolean): string {
    let keys = this.resultKeys.get(kind);
    if (keys === undefined) {
      keys = Object.freeze([
        `${kind}/false/false`,
        `${kind}/false/true`,
        `${kind}/true/false`,
        `${kind}/true/true`,
      ]);
      this.resultKeys.set(kind, keys);
    }
    return keys[(observed ? 2 : 0) + (admission ? 1 : 0)];
  }

  /** `pattern` compiled, once per cache. */
  regExp(pattern: string): RegExp {
    let re = this.patterns.get(pattern);
    if (re === undefined) {
      re = new RegExp(pattern);
      this.patterns.set(pattern, re);
    }
    return re;
  }
}
