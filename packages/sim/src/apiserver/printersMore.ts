// Table printers of batch/v1 Jobs and networking.k8s.io/v1 Ingresses, as kube-apiserver
// prints them (pkg/printers/internalversion): `kubectl get jobs` → NAME STATUS COMPLETIONS
// DURATION AGE (+ CONTAINERS IMAGES SELECTOR with -o wide); `kubectl get ingress` → NAME CLASS
// HOSTS ADDRESS PORTS AGE.
import type { KubeObject } from '@kruise-ts/api';
import { humanDuration } from '@kruise-ts/cluster';
import { ageOf, c, nameCol, type Printer, templateWideCells, templateWideColumns } from './printers';

type J = Record<string, any>;

const condTrue = (o: KubeObject, type: string) =>
  (((o.status as J | undefined)?.conditions ?? []) as J[]).some(
    (x) => x.type === type && x.status === 'True',
  );

/**
 * A Job's STATUS: the first that holds of Complete, Failed, Terminating (deletionTimestamp),
 * Suspended, FailureTarget, SuccessCriteriaMet (conditions with status True), else Running.
 */
export function jobStatusText(job: KubeObject): string {
  if (condTrue(job, 'Complete')) return 'Complete';
  if (condTrue(job, 'Failed')) return 'Failed';
  if (job.metadata.deletionTimestamp) return 'Terminating';
  for (const t of ['Suspended', 'FailureTarget', 'SuccessCriteriaMet']) if (condTrue(job, t)) return t;
  return 'Running';
}

/**
 * A Job's COMPLETIONS: `succeeded/completions`; without completions `succeeded/1`, or
 * `succeeded/1 of parallelism` when parallelism > 1.
 *
 * Example: completions 3 with 2 succeeded → `2/3`; no completions, parallelism 4 → `0/1 of 4`.
 */
export function jobCompletionsText(job: KubeObject): string {
  const spec = (job.spec ?? {}) as J;
  const succeeded =
    typeof (job.status as J | undefined)?.succeeded === 'number' ? (job.status as J).succeeded : 0;
  if (typeof spec.completions === 'number') return `${succeeded}/${spec.completions}`;
  const parallelism = typeof spec.parallelism === 'number' ? spec.parallelism : 0;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

/**
 * A Job's DURATION: empty before it started, `now − startTime` while it runs, `completionTime −
 * startTime` once complete (kubectl's HumanDuration).
 *
 * Example: started 10:00:00, completed 10:00:42 → `42s`.
 */
export function jobDurationText(job: KubeObject, nowMs: number): string {
  const st = (job.status ?? {}) as J;
  const start = typeof st.startTime === 'string' ? Date.parse(st.startTime) : Number.NaN;
  if (!Number.isFinite(start)) return '';
  const end = typeof st.completionTime === 'string' ? Date.parse(st.completionTime) : Number.NaN;
  return humanDuration((Number.isFinite(end) ? end : nowMs) - start);
}

function ingressHosts(rules: J[]): string {
  const max = 3;
  const hosts: string[] = [];
  let more = false;
  for (const r of rules) {
    if (hosts.length === max) more = true;
    if (!more && typeof r?.host === 'string' && r.host !== '') hosts.push(r.host);
  }
  if (hosts.length === 0) return '*';
  return more ? `${hosts.join(',')} + ${rules.length - max} more...` : hosts.join(',');
}

function ingressAddress(status: J | undefined): string {
  const lbs = ((status?.loadBalancer?.ingress ?? []) as J[])
    .map((i) => i?.ip || i?.hostname)
    .filter((x): x is string => typeof x === 'string' && x !== '');
  return lbs.join(',');
}

/** Printers of Job and Ingress, by kind. */
export const MORE_PRINTERS: Record<string, Printer> = {
  Job: {
    columns: [nameCol(), c('Status'), c('Completions'), c('Duration'), c('Age'), ...templateWideColumns()],
    row: (o, now) => {
      const s = (o.spec ?? {}) as J;
      return [
        o.metadata.name,
        jobStatusText(o),
        jobCompletionsText(o),
        jobDurationText(o, now),
        ageOf(o, now),
        ...templateWideCells(s),
      ];
    },
  },
  Ingress: {
    columns: [nameCol(), c('Class'), c('Hosts'), c('Address'), c('Ports'), c('Age')],
    row: (o, now) => {
      const s = (o.spec ?? {}) as J;
      return [
        o.metadata.name,
        typeof s.ingressClassName === 'string' ? s.ingressClassName : '<none>',
        ingressHosts((s.rules ?? []) as J[]),
        ingressAddress(o.status as J | undefined),
        ((s.tls ?? []) as J[]).length > 0 ? '80, 443' : '80',
        ageOf(o, now),
      ];
    },
  },
};
