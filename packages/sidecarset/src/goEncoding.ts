// Go `encoding/json` output of a SidecarContainer (docs/reference/sidecarset.md SS-2.4): struct keys
// in Go field declaration order (k8s.io/api v0.30 core types, then the SidecarSet fields),
// `omitempty` semantics per field, maps with sorted keys, quantities in canonical form.
// This is the byte layout the SidecarSet hashes are computed over (SS-2.3).
import { canonicalQuantity, goJsonStringify } from '@kruise-ts/core';

/**
 * How a struct field is written:
 * - `always`: no omitempty (an absent value writes Go's zero: `""`, `0`, `{}` for structs,
 *   `null` for lists);
 * - `omitempty`: dropped when absent or zero (`""`, `0`, `false`, empty list or map);
 * - `ptr`: a pointer with omitempty: dropped only when absent/null.
 */
type Mode = 'always' | 'omitempty' | 'ptr';
/** What the value is: a plain scalar, a struct (by schema name), a list of structs, or special. */
type Kind =
  | 'scalar'
  | 'stringList'
  | 'intOrString'
  | 'quantity'
  | 'quantityMap'
  | 'stringMap'
  | { struct: string }
  | { list: string };

/** A struct field; `zero` is what an absent `always` scalar encodes as (default `""`). */
type Field = [key: string, mode: Mode, kind: Kind, zero?: string];

const S = (name: string): Kind => ({ struct: name });
const L = (name: string): Kind => ({ list: name });

/** Field order of every type a SidecarContainer can contain (k8s.io/api v0.30, kruise v1.8.2). */
const SCHEMAS: Record<string, Field[]> = {
  Container: [
    ['name', 'always', 'scalar'],
    ['image', 'omitempty', 'scalar'],
    ['command', 'omitempty', 'stringList'],
    ['args', 'omitempty', 'stringList'],
    ['workingDir', 'omitempty', 'scalar'],
    ['ports', 'omitempty', L('ContainerPort')],
    ['envFrom', 'omitempty', L('EnvFromSource')],
    ['env', 'omitempty', L('EnvVar')],
    ['resources', 'always', S('ResourceRequirements')],
    ['resizePolicy', 'omitempty', L('ContainerResizePolicy')],
    ['restartPolicy', 'ptr', 'scalar'],
    ['volumeMounts', 'omitempty', L('VolumeMount')],
    ['volumeDevices', 'omitempty', L('VolumeDevice')],
    ['livenessProbe', 'ptr', S('Probe')],
    ['readinessProbe', 'ptr', S('Probe')],
    ['startupProbe', 'ptr', S('Probe')],
    ['lifecycle', 'ptr', S('Lifecycle')],
    ['terminationMessagePath', 'omitempty', 'scalar'],
    ['terminationMessagePolicy', 'omitempty', 'scalar'],
    ['imagePullPolicy', 'omitempty', 'scalar'],
    ['securityContext', 'ptr', S('SecurityContext')],
    ['stdin', 'omitempty', 'scalar'],
    ['stdinOnce', 'omitempty', 'scalar'],
    ['tty', 'omitempty', 'scalar'],
  ],
  SidecarFields: [
    ['podInjectPolicy', 'omitempty', 'scalar'],
    ['upgradeStrategy', 'always', S('SidecarContainerUpgradeStrategy')],
    ['shareVolumePolicy', 'always', S('ShareVolumePolicy')],
    ['transferEnv', 'omitempty', L('TransferEnvVar')],
  ],
  SidecarContainerUpgradeStrategy: [
    ['upgradeType', 'omitempty', 'scalar'],
    ['hotUpgradeEmptyImage', 'omitempty', 'scalar'],
  ],
  ShareVolumePolicy: [['type', 'omitempty', 'scalar']],
  TransferEnvVar: [
    ['sourceContainerName', 'omitempty', 'scalar'],
    ['sourceContainerNameFrom', 'ptr', S('SourceContainerNameSource')],
    ['envName', 'omitempty', 'scalar'],
    ['envNames', 'omitempty', 'stringList'],
  ],
  SourceContainerNameSource: [['fieldRef', 'ptr', S('ObjectFieldSelector')]],
  ContainerPort: [
    ['name', 'omitempty', 'scalar'],
    ['hostPort', 'omitempty', 'scalar'],
    ['containerPort', 'always', 'scalar', '0'],
    ['protocol', 'omitempty', 'scalar'],
    ['hostIP', 'omitempty', 'scalar'],
  ],
  EnvFromSource: [
    ['prefix', 'omitempty', 'scalar'],
    ['configMapRef', 'ptr', S('LocalRefOptional')],
    ['secretRef', 'ptr', S('LocalRefOptional')],
  ],
  LocalRefOptional: [
    ['name', 'omitempty', 'scalar'],
    ['optional', 'ptr', 'scalar'],
  ],
  EnvVar: [
    ['name', 'always', 'scalar'],
    ['value', 'omitempty', 'scalar'],
    ['valueFrom', 'ptr', S('EnvVarSource')],
  ],
  EnvVarSource: [
    ['fieldRef', 'ptr', S('ObjectFieldSelector')],
    ['resourceFieldRef', 'ptr', S('ResourceFieldSelector')],
    ['configMapKeyRef', 'ptr', S('KeySelector')],
    ['secretKeyRef', 'ptr', S('KeySelector')],
  ],
  ObjectFieldSelector: [
    ['apiVersion', 'omitempty', 'scalar'],
    ['fieldPath', 'always', 'scalar'],
  ],
  ResourceFieldSelector: [
    ['containerName', 'omitempty', 'scalar'],
    ['resource', 'always', 'scalar'],
    ['divisor', 'always', 'quantity'],
  ],
  KeySelector: [
    ['name', 'omitempty', 'scalar'],
    ['key', 'always', 'scalar'],
    ['optional', 'ptr', 'scalar'],
  ],
  ResourceRequirements: [
    ['limits', 'omitempty', 'quantityMap'],
    ['requests', 'omitempty', 'quantityMap'],
    ['claims', 'omitempty', L('ResourceClaim')],
  ],
  ResourceClaim: [
    ['name', 'always', 'scalar'],
    ['request', 'omitempty', 'scalar'],
  ],
  ContainerResizePolicy: [
    ['resourceName', 'always', 'scalar'],
    ['restartPolicy', 'always', 'scalar'],
  ],
  VolumeMount: [
    ['name', 'always', 'scalar'],
    ['readOnly', 'omitempty', 'scalar'],
    ['recursiveReadOnly', 'ptr', 'scalar'],
    ['mountPath', 'always', 'scalar'],
    ['subPath', 'omitempty', 'scalar'],
    ['mountPropagation', 'ptr', 'scalar'],
    ['subPathExpr', 'omitempty', 'scalar'],
  ],
  VolumeDevice: [
    ['name', 'always', 'scalar'],
    ['devicePath', 'always', 'scalar'],
  ],
  Probe: [
    ['exec', 'ptr', S('ExecAction')],
    ['httpGet', 'ptr', S('HTTPGetAction')],
    ['tcpSocket', 'ptr', S('TCPSocketAction')],
    ['grpc', 'ptr', S('GRPCAction')],
    ['initialDelaySeconds', 'omitempty', 'scalar'],
    ['timeoutSeconds', 'omitempty', 'scalar'],
    ['periodSeconds', 'omitempty', 'scalar'],
    ['successThreshold', 'omitempty', 'scalar'],
    ['failureThreshold', 'omitempty', 'scalar'],
    ['terminationGracePeriodSeconds', 'ptr', 'scalar'],
  ],
  ExecAction: [['command', 'omitempty', 'stringList']],
  HTTPGetAction: [
    ['path', 'omitempty', 'scalar'],
    ['port', 'always', 'intOrString'],
    ['host', 'omitempty', 'scalar'],
    ['scheme', 'omitempty', 'scalar'],
    ['httpHeaders', 'omitempty', L('HTTPHeader')],
  ],
  HTTPHeader: [
    ['name', 'always', 'scalar'],
    ['value', 'always', 'scalar'],
  ],
  TCPSocketAction: [
    ['port', 'always', 'intOrString'],
    ['host', 'omitempty', 'scalar'],
  ],
  GRPCAction: [
    ['port', 'always', 'scalar', '0'],
    ['service', 'ptr', 'scalar'],
  ],
  Lifecycle: [
    ['postStart', 'ptr', S('LifecycleHandler')],
    ['preStop', 'ptr', S('LifecycleHandler')],
  ],
  LifecycleHandler: [
    ['exec', 'ptr', S('ExecAction')],
    ['httpGet', 'ptr', S('HTTPGetAction')],
    ['tcpSocket', 'ptr', S('TCPSocketAction')],
    ['sleep', 'ptr', S('SleepAction')],
  ],
  SleepAction: [['seconds', 'always', 'scalar', '0']],
  SecurityContext: [
    ['capabilities', 'ptr', S('Capabilities')],
    ['privileged', 'ptr', 'scalar'],
    ['seLinuxOptions', 'ptr', S('SELinuxOptions')],
    ['windowsOptions', 'ptr', S('WindowsOptions')],
    ['runAsUser', 'ptr', 'scalar'],
    ['runAsGroup', 'ptr', 'scalar'],
    ['runAsNonRoot', 'ptr', 'scalar'],
    ['readOnlyRootFilesystem', 'ptr', 'scalar'],
    ['allowPrivilegeEscalation', 'ptr', 'scalar'],
    ['procMount', 'ptr', 'scalar'],
    ['seccompProfile', 'ptr', S('Profile')],
    ['appArmorProfile', 'ptr', S('Profile')],
  ],
  Capabilities: [
    ['add', 'omitempty', 'stringList'],
    ['drop', 'omitempty', 'stringList'],
  ],
  SELinuxOptions: [
    ['user', 'omitempty', 'scalar'],
    ['role', 'omitempty', 'scalar'],
    ['type', 'omitempty', 'scalar'],
    ['level', 'omitempty', 'scalar'],
  ],
  WindowsOptions: [
    ['gmsaCredentialSpecName', 'ptr', 'scalar'],
    ['gmsaCredentialSpec', 'ptr', 'scalar'],
    ['runAsUserName', 'ptr', 'scalar'],
    ['hostProcess', 'ptr', 'scalar'],
  ],
  Profile: [
    ['type', 'always', 'scalar'],
    ['localhostProfile', 'ptr', 'scalar'],
  ],
};

function isZero(v: unknown): boolean {
  if (v === undefined || v === null || v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v as object).length === 0;
  return false;
}

/** Go's encoding of the zero value of a non-omitempty field. */
function zeroOf(kind: Kind, zero: string | undefined): string {
  if (typeof kind === 'object') return 'struct' in kind ? '{}' : 'null';
  if (kind === 'scalar') return zero ?? '""';
  if (kind === 'quantity') return '"0"';
  if (kind === 'intOrString') return '0';
  return 'null';
}

function encodeValue(v: unknown, kind: Kind): string {
  if (kind === 'scalar' || kind === 'stringList' || kind === 'intOrString' || kind === 'stringMap') {
    return goJsonStringify(v);
  }
  if (kind === 'quantity') return goJsonStringify(canonicalQuantity(v) ?? v);
  if (kind === 'quantityMap') {
    const m = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(m)) out[k] = canonicalQuantity(m[k]) ?? m[k];
    return goJsonStringify(out);
  }
  if ('list' in kind) {
    if (!Array.isArray(v)) return goJsonStringify(v);
    return `[${v.map((item) => encodeStruct(item, kind.list)).join(',')}]`;
  }
  return encodeStruct(v, kind.struct);
}

function encodeFields(
  obj: Record<string, unknown>,
  fields: Field[],
  parts: string[],
  known: Set<string>,
): void {
  for (const [key, mode, kind, zero] of fields) {
    known.add(key);
    const v = obj[key];
    if (mode === 'omitempty' && isZero(v)) continue;
    if (mode === 'ptr' && (v === undefined || v === null)) continue;
    const text = v === undefined || v === null ? zeroOf(kind, zero) : encodeValue(v, kind);
    parts.push(`${goJsonStringify(key)}:${text}`);
  }
}

/**
 * Encodes `value` as Go would encode the struct `type`. Keys the schema does not know (newer
 * API fields) follow the known ones in input order, encoded with sorted nested keys.
 */
export function encodeStruct(value: unknown, type: string): string {
  if (value === null || value === undefined || typeof value !== 'object' || Array.isArray(value)) {
    return goJsonStringify(value ?? {});
  }
  const obj = value as Record<string, unknown>;
  const parts: string[] = [];
  const known = new Set<string>();
  encodeFields(obj, SCHEMAS[type], parts, known);
  if (type === 'Container') encodeFields(obj, SCHEMAS.SidecarFields, parts, known);
  for (const key of Object.keys(obj)) {
    if (known.has(key) || obj[key] === undefined || obj[key] === null) continue;
    parts.push(`${goJsonStringify(key)}:${goJsonStringify(obj[key])}`);
  }
  return `{${parts.join(',')}}`;
}

/**
 * SS-2.4: the Go JSON of one SidecarContainer (core Container keys, then `podInjectPolicy`,
 * `upgradeStrategy`, `shareVolumePolicy`, `transferEnv`).
 *
 * Example: `{name: 'container1', image: 'test-image'}` →
 * `{"name":"container1","image":"test-image","resources":{},"upgradeStrategy":{},"shareVolumePolicy":{}}`.
 */
export function encodeSidecarContainer(container: unknown): string {
  return encodeStruct(container, 'Container');
}

/** A list of SidecarContainers: `null` when absent, `[]` when explicitly empty (SS-2.3). */
export function encodeSidecarContainers(list: readonly unknown[] | null | undefined): string {
  if (list === null || list === undefined) return 'null';
  return `[${list.map(encodeSidecarContainer).join(',')}]`;
}
