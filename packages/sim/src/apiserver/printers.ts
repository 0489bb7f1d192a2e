// Table printers of the built-in kinds, as kubectl users know them from
// kube-apiserver (pkg/printers/internalversion): pods (kubectl's printPod
// STATUS/READY/RESTARTS logic), nodes, namespaces, events, PVCs, services, config
// maps, secrets, leases, CRDs and webhook configurations (deployments, replica sets,
// stateful sets and controller revisions are in printersApps.ts, jobs and ingresses in
// printersMore.ts). Every other kind gets `NAME AGE`.
import type { KubeObject } from '@kruise-ts/api';
import { humanDuration } from '@kruise-ts/cluster';

/** A `meta.k8s.io/v1` Table column definition. */
export interface ColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

/** Cells of one row, computed at `nowMs` (epoch ms). */
export type RowFn = (obj: KubeObject, nowMs: number) => unknown[];

/** A built-in kind's printer. */
export interface Printer {
  columns: ColumnDefinition[];
  row: RowFn;
}

/** A column definition (description empty, as most built-in printers here). */
export const c = (name: string, type = 'string', priority = 0, format = ''): ColumnDefinition => ({
  name,
  type,
  format,
  description: '',
  priority,
});
/** The `Name` column every printer starts with. */
export const nameCol = (): ColumnDefinition => ({
  ...c('Name', 'string', 0, 'name'),
  description: 'Name must be unique within a namespace.',
});

type J = Record<string, any>;

/** `HumanDuration(now − t)`, `<unknown>` when there is no timestamp. */
export function age(ts: unknown, nowMs: number): string {
  if (typeof ts !== 'string') return '<unknown>';
  const t = Date.parse(ts);
  if (!Number.isFinite(t)) return '<unknown>';
  return humanDuration(nowMs - t);
}

/** An object's AGE cell. */
export const ageOf = (o: KubeObject, now: number) => age(o.metadata.creationTimestamp, now);
const none = (v: unknown) => (v === undefined || v === null || v === '' ? '<none>' : String(v));

/** kubectl's pod STATUS, READY and RESTARTS (printPod). */
export function podRow(pod: KubeObject, nowMs: number): unknown[] {
  const spec = (pod.spec ?? {}) as J;
  const status = (pod.status ?? {}) as J;
  let restarts = 0;
  let lastRestart = 0;
  const total = (spec.containers ?? []).length;
  let ready = 0;
  let reason: string = status.reason || status.phase || '';
  const noteRestart = (cs: J) => {
    restarts += cs.restartCount ?? 0;
    const fin = cs.lastState?.terminated?.finishedAt;
    if (fin) lastRestart = Math.max(lastRestart, Date.parse(fin) || 0);
  };
  let initializing = false;
  const inits = (status.initContainerStatuses ?? []) as J[];
  for (let i = 0; i < inits.length; i++) {
    const cs = inits[i];
    noteRestart(cs);
    const term = cs.state?.terminated;
    const wait = cs.state?.waiting;
    if (term && term.exitCode === 0) continue;
    if (term)
      reason = term.reason
        ? `Init:${term.reason}`
        : term.signal
          ? `Init:Signal:${term.signal}`
          : `Init:ExitCode:${term.exitCode}`;
    else if (wait?.reason && wait.reason !== 'PodInitializing') reason = `Init:${wait.reason}`;
    else reason = `Init:${i}/${(spec.initContainers ?? []).length}`;
    initializing = true;
    break;
  }
  const conds = (status.conditions ?? []) as J[];
  const condTrue = (t: string) => conds.some((x) => x.type === t && x.status === 'True');
  if (!initializing || condTrue('Initialized')) {
    let hasRunning = false;
    const css = (status.containerStatuses ?? []) as J[];
    for (let i = css.length - 1; i >= 0; i--) {
      const cs = css[i];
      noteRestart(cs);
      const st = cs.state ?? {};
      if (st.waiting?.reason) reason = st.waiting.reason;
      else if (st.terminated?.reason) reason = st.terminated.reason;
      else if (st.terminated)
        reason = st.terminated.signal
          ? `Signal:${st.terminated.signal}`
          : `ExitCode:${st.terminated.exitCode}`;
      else if (cs.ready && st.running) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) reason = condTrue('Ready') ? 'Running' : 'NotReady';
  }
  if (pod.metadata.deletionTimestamp) reason = status.reason === 'NodeLost' ? 'Unknown' : 'Terminating';
  const restartText =
    lastRestart > 0 ? `${restarts} (${humanDuration(nowMs - lastRestart)} ago)` : String(restarts);
  const gates = (spec.readinessGates ?? []) as J[];
  const gatesText =
    gates.length === 0
      ? '<none>'
      : `${gates.filter((g) => condTrue(g.conditionType)).length}/${gates.length}`;
  return [
    pod.metadata.name,
    `${ready}/${total}`,
    reason,
    restartText,
    ageOf(pod, nowMs),
    none(status.podIP),
    none(spec.nodeName),
    none(status.nominatedNodeName),
    gatesText,
  ];
}

function nodeRow(node: KubeObject, now: number): unknown[] {
  const status = (node.status ?? {}) as J;
  const readyCond = ((status.conditions ?? []) as J[]).find((x) => x.type === 'Ready');
  let st = !readyCond
    ? 'Unknown'
    : readyCond.status === 'True'
      ? 'Ready'
      : readyCond.status === 'False'
        ? 'NotReady'
        : 'Unknown';
  if ((node.spec as J | undefined)?.unschedulable) st += ',SchedulingDisabled';
  const roles = Object.keys(node.metadata.labels ?? {})
    .filter((k) => k.startsWith('node-role.kubernetes.io/'))
    .map((k) => k.slice('node-role.kubernetes.io/'.length))
    .filter((r) => r !== '');
  const addr = (t: string) => ((status.addresses ?? []) as J[]).find((a) => a.type === t)?.address;
  const info = (status.nodeInfo ?? {}) as J;
  return [
    node.metadata.name,
    st,
    roles.length ? roles.sort().join(',') : '<none>',
    ageOf(node, now),
    info.kubeletVersion ?? '',
    none(addr('InternalIP')),
    none(addr('ExternalIP')),
    info.osImage ?? '<unknown>',
    info.kernelVersion ?? '<unknown>',
    info.containerRuntimeVersion ?? '<unknown>',
  ];
}

function eventRow(ev: KubeObject, now: number): unknown[] {
  const e = ev as J;
  const io = (e.involvedObject ?? {}) as J;
  const last = e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? ev.metadata.creationTimestamp;
  const first = e.firstTimestamp ?? e.eventTime ?? ev.metadata.creationTimestamp;
  const src = e.source?.component
    ? `${e.source.component}${e.source.host ? `, ${e.source.host}` : ''}`
    : (e.reportingComponent ?? '');
  return [
    age(last, now),
    e.type ?? '',
    e.reason ?? '',
    `${String(io.kind ?? '').toLowerCase()}/${io.name ?? ''}`,
    io.fieldPath ?? '',
    src,
    String(e.message ?? '').trim(),
    age(first, now),
    e.count ?? 1,
    ev.metadata.name,
  ];
}

/** kubectl's CONTAINERS and IMAGES cells of a pod template. */
export function images(tpl: J | undefined): [string, string] {
  const cs = (tpl?.spec?.containers ?? []) as J[];
  return [cs.map((x) => x.name).join(','), cs.map((x) => x.image).join(',')];
}

/** A label selector as the SELECTOR cell (`<none>` when empty). */
export function selectorText(sel: J | undefined): string {
  if (!sel) return '<none>';
  const parts = Object.entries((sel.matchLabels ?? {}) as Record<string, string>).map(
    ([k, v]) => `${k}=${v}`,
  );
  for (const r of (sel.matchExpressions ?? []) as J[])
    parts.push(`${r.key} ${String(r.operator).toLowerCase()} (${(r.values ?? []).join(',')})`);
  return parts.length ? parts.join(',') : '<none>';
}

/**
 * The `-o wide` columns of a workload with a pod template and a selector (Deployment, ReplicaSet,
 * Job): CONTAINERS IMAGES SELECTOR; their cells are `templateWideCells`.
 */
export const templateWideColumns = (): ColumnDefinition[] => [
  c('Containers', 'string', 1),
  c('Images', 'string', 1),
  c('Selector', 'string', 1),
];

/** The cells of `templateWideColumns` from a workload's spec: container names, images, selector. */
export function templateWideCells(spec: J): [string, string, string] {
  return [...images(spec.template), selectorText(spec.selector)];
}

/** A status counter as printed: the number, or 0 when absent. */
export const n = (v: unknown) => (typeof v === 'number' ? v : 0);

/** Printers of the built-in kinds, by kind. */
export const PRINTERS: Record<string, Printer> = {
  Pod: {
    columns: [
      nameCol(),
      c('Ready'),
      c('Status'),
      c('Restarts'),
      c('Age'),
      c('IP', 'string', 1),
      c('Node', 'string', 1),
      c('Nominated Node', 'string', 1),
      c('Readiness Gates', 'string', 1),
    ],
    row: podRow,
  },
  Node: {
    columns: [
      nameCol(),
      c('Status'),
      c('Roles'),
      c('Age'),
      c('Version'),
      c('Internal-IP', 'string', 1),
      c('External-IP', 'string', 1),
      c('OS-Image', 'string', 1),
      c('Kernel-Version', 'string', 1),
      c('Container-Runtime', 'string', 1),
    ],
    row: nodeRow,
  },
  Namespace: {
    columns: [nameCol(), c('Status'), c('Age')],
    row: (o, now) => [o.metadata.name, (o.status as J | undefined)?.phase ?? 'Active', ageOf(o, now)],
  },
  Event: {
    columns: [
      c('Last Seen'),
      c('Type'),
      c('Reason'),
      c('Object'),
      c('Subobject', 'string', 1),
      c('Source', 'string', 1),
      c('Message'),
      c('First Seen', 'string', 1),
      c('Count', 'integer', 1),
      { ...c('Name', 'string', 1, 'name') },
    ],
    row: eventRow,
  },
  PersistentVolumeClaim: {
    columns: [
      nameCol(),
      c('Status'),
      c('Volume'),
      c('Capacity'),
      c('Access Modes'),
      c('StorageClass'),
      c('VolumeAttributesClass'),
      c('Age'),
      c('VolumeMode', 'string', 1),
    ],
    row: (o, now) => {
      const s = (o.spec ?? {}) as J;
      const st = (o.status ?? {}) as J;
      const modes = ((st.accessModes ?? s.accessModes ?? []) as string[]).map(
        (m) =>
          ({ ReadWriteOnce: 'RWO', ReadOnlyMany: 'ROX', ReadWriteMany: 'RWX', ReadWriteOncePod: 'RWOP' })[
            m
          ] ?? m,
      );
      return [
        o.metadata.name,
        st.phase ?? 'Pending',
        s.volumeName ?? '',
        st.capacity?.storage ?? s.resources?.requests?.storage ?? '',
        modes.join(','),
        s.storageClassName ?? '<unset>',
        '<unset>',
        ageOf(o, now),
        s.volumeMode ?? 'Filesystem',
      ];
    },
  },
  Service: {
    columns: [
      nameCol(),
      c('Type'),
      c('Cluster-IP'),
      c('External-IP'),
      c('Port(s)'),
      c('Age'),
      c('Selector', 'string', 1),
    ],
    row: (o, now) => {
      const s = (o.spec ?? {}) as J;
      const ports = ((s.ports ?? []) as J[]).map(
        (p) => `${p.port}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol ?? 'TCP'}`,
      );
      const sel = Object.entries((s.selector ?? {}) as Record<string, string>).map(([k, v]) => `${k}=${v}`);
      return [
        o.metadata.name,
        s.type ?? 'ClusterIP',
        s.clusterIP ?? '<none>',
        '<none>',
        ports.length ? ports.join(',') : '<none>',
        ageOf(o, now),
        sel.length ? sel.join(',') : '<none>',
      ];
    },
  },
  ConfigMap: {
    columns: [nameCol(), c('Data', 'integer'), c('Age')],
    row: (o, now) => [
      o.metadata.name,
      Object.keys((o as J).data ?? {}).length + Object.keys((o as J).binaryData ?? {}).length,
      ageOf(o, now),
    ],
  },
  Secret: {
    columns: [nameCol(), c('Type'), c('Data', 'integer'), c('Age')],
    row: (o, now) => [
      o.metadata.name,
      (o as J).type ?? 'Opaque',
      Object.keys((o as J).data ?? {}).length,
      ageOf(o, now),
    ],
  },
  Lease: {
    columns: [nameCol(), c('Holder'), c('Age')],
    row: (o, now) => [o.metadata.name, (o.spec as J | undefined)?.holderIdentity ?? '', ageOf(o, now)],
  },
  CustomResourceDefinition: {
    columns: [nameCol(), { ...c('Created At', 'date'), description: 'creation time' }],
    row: (o) => [o.metadata.name, o.metadata.creationTimestamp ?? ''],
  },
  MutatingWebhookConfiguration: {
    columns: [nameCol(), c('Webhooks', 'integer'), c('Age')],
    row: (o, now) => [o.metadata.name, ((o as J).webhooks ?? []).length, ageOf(o, now)],
  },
  ValidatingWebhookConfiguration: {
    columns: [nameCol(), c('Webhooks', 'integer'), c('Age')],
    row: (o, now) => [o.metadata.name, ((o as J).webhooks ?? []).length, ageOf(o, now)],
  },
};

/** The default printer: `NAME AGE`. */
export const DEFAULT_PRINTER: Printer = {
  columns: [
    nameCol(),
    {
      ...c('Age'),
      description:
        'CreationTimestamp is a timestamp representing the server time when this object was created.',
    },
  ],
  row: (o, now) => [o.metadata.name, ageOf(o, now)],
};
