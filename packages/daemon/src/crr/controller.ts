// The CRR daemon controller (docs/reference/daemon.md §9.2–§9.5): watches this node's active CRRs, serialises
// work per pod, picks one CRR per pod, and runs manage: runtime lookup, pod status from CRI, state
// computation, kills, status patches and completion. Never creates containers (kubelet does, §9.5).
import type {
  ContainerRecreateRequest,
  ContainerRecreateRequestStatus,
  ContainerRecreateRequestContainerRecreateState as RecreateState,
} from '@kruise-ts/api';
import { LABEL_CRR_POD_UID } from '@kruise-ts/api';
import type { ObjectReference } from 'kubernetes-types/core/v1.js';
import { type Clock, type Rng, realClock, rfc3339 } from '../clock';
import { CriError, type CriRuntimeService } from '../cri/types';
import { type KubeAdapter, refOfObject, type StopWatch } from '../kube/adapter';
import { type Logger, silentLogger } from '../log';
import { WorkQueue } from '../queue';
import { killContainer } from './kill';
import { isDoneOrDeleting, pickCRR, pickedStep, runtimeTypeOf, terminationGraceSeconds } from './pick';
import {
  KUBELET_LABEL_POD_UID,
  type RuntimeContainerStatus,
  sortNewestFirst,
  toRuntimeContainerStatus,
} from './podStatus';
import { actionPass, applyKillResult, computeContainerStates, statesEqual } from './states';

/** Options of {@link CrrDaemonController}. */
export interface CrrDaemonOptions {
  nodeName: string;
  kube: KubeAdapter;
  /** §7.1 item 3: the runtime service by `runtime_name`. */
  runtimeByName: (name: string) => CriRuntimeService | undefined;
  clock?: Clock;
  rng?: Rng;
  logger?: Logger;
  /** §9.2 item 2: 32 workers. */
  workers?: number;
  /** §9.2 item 3.3: how long a write expectation may block picking (10 s). */
  expectationTimeoutMs?: number;
  /** Passed to httpGet preStop hooks (tests). */
  httpGet?: (url: string, headers: Record<string, string>) => Promise<number>;
}

const podKey = (c: ContainerRecreateRequest) => `${c.metadata.namespace ?? ''}/${c.spec?.podName ?? ''}`;

function rvNewerOrEqual(have: string | undefined, want: string): boolean {
  if (have === undefined) return false;
  if (/^\d+$/.test(have) && /^\d+$/.test(want)) return BigInt(have) >= BigInt(want);
  return have === want;
}

/** The CRR side of the daemon on one node. */
export class CrrDaemonController {
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly cache = new Map<string, ContainerRecreateRequest>();
  private readonly expectations = new Map<string, { rv: string; atMs: number }>();
  private readonly queue: WorkQueue;
  private stopWatch: StopWatch | undefined;

  constructor(private readonly opts: CrrDaemonOptions) {
    this.clock = opts.clock ?? realClock;
    this.logger = (opts.logger ?? silentLogger()).child({ component: 'containerrecreate' });
    this.queue = new WorkQueue((key) => this.sync(key), {
      clock: this.clock,
      rng: opts.rng ?? Math.random,
      workers: opts.workers ?? 32,
      onError: (key, e) =>
        this.logger.warn({ key, err: (e as Error).message }, 'sync failed, retrying with backoff'),
    });
  }

  /** §9.2 item 1: watch and enqueue `<ns>/<podName>` on add/update unless deleting or completed. */
  async start(): Promise<void> {
    this.stopWatch = await this.opts.kube.watchContainerRecreateRequests(this.opts.nodeName, (ev) => {
      const c = ev.object;
      const k = `${c.metadata.namespace ?? ''}/${c.metadata.name ?? ''}`;
      if (ev.type === 'DELETED') {
        this.cache.delete(k);
        this.expectations.delete(k);
        return;
      }
      this.cache.set(k, c);
      if (!isDoneOrDeleting(c)) this.queue.add(podKey(c));
    });
  }

  /** Stops the watch and waits for running syncs. */
  async stop(): Promise<void> {
    this.stopWatch?.();
    await this.queue.shutdown();
  }

  private expect(obj: ContainerRecreateRequest): ContainerRecreateRequest {
    const k = `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
    if (obj.metadata.resourceVersion)
      this.expectations.set(k, { rv: obj.metadata.resourceVersion, atMs: this.clock.now() });
    return obj;
  }

  private expectationPending = (c: ContainerRecreateRequest): boolean => {
    const k = `${c.metadata.namespace ?? ''}/${c.metadata.name ?? ''}`;
    const e = this.expectations.get(k);
    if (!e) return false;
    if (
      rvNewerOrEqual(c.metadata.resourceVersion, e.rv) ||
      this.clock.now() - e.atMs >= (this.opts.expectationTimeoutMs ?? 10_000)
    ) {
      this.expectations.delete(k);
      return false;
    }
    return true;
  };

  private async updateStatus(
    crr: ContainerRecreateRequest,
    status: ContainerRecreateRequestStatus,
  ): Promise<void> {
    this.expect(await this.opts.kube.updateContainerRecreateRequestStatus(crr, status));
  }

  private async patchStates(crr: ContainerRecreateRequest, states: RecreateState[]): Promise<void> {
    this.expect(
      await this.opts.kube.patchContainerRecreateRequestStatus(
        crr.metadata.namespace ?? '',
        crr.metadata.name ?? '',
        {
          containerRecreateStates: states,
        },
      ),
    );
  }

  /** §9.1 item 10 (as the daemon does it): phase Completed, completionTime now, message. */
  private async complete(
    crr: ContainerRecreateRequest,
    message: string,
    states?: RecreateState[],
  ): Promise<void> {
    const status: ContainerRecreateRequestStatus = {
      ...(crr.status ?? {}),
      phase: 'Completed',
      completionTime: rfc3339(this.clock.now()),
      message,
    };
    if (states) status.containerRecreateStates = states;
    this.logger.info(
      { crr: `${crr.metadata.namespace}/${crr.metadata.name}`, message },
      'completed ContainerRecreateRequest',
    );
    await this.updateStatus(crr, status);
  }

  /** §9.2 item 3 for one pod key. */
  private async sync(key: string): Promise<{ requeueAfterMs?: number }> {
    const [ns, podName] = [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)];
    const crrs = [...this.cache.values()].filter(
      (c) => (c.metadata.namespace ?? '') === ns && c.spec?.podName === podName,
    );
    const pick = pickCRR(crrs, this.expectationPending);
    if (pick.waiting) return { requeueAfterMs: 1_000 };
    for (const c of pick.toPending) await this.updateStatus(c, { ...(c.status ?? {}), phase: 'Pending' });
    const crr = pick.picked;
    if (!crr) return {};
    const step = pickedStep(crr, this.clock.now());
    switch (step.kind) {
      case 'setRecreating':
        await this.updateStatus(crr, { ...(crr.status ?? {}), phase: 'Recreating' });
        return {};
      case 'waitUnreadyAcquired':
        return {};
      case 'complete':
        await this.complete(crr, step.message);
        return {};
      case 'requeue':
        return { requeueAfterMs: step.afterMs };
      default:
        return this.manage(crr);
    }
  }

  private async podStatus(
    runtime: CriRuntimeService,
    runtimeName: string,
    uid: string,
  ): Promise<RuntimeContainerStatus[]> {
    const list = await runtime.listContainers({ labelSelector: { [KUBELET_LABEL_POD_UID]: uid } });
    const out: RuntimeContainerStatus[] = [];
    for (const c of list) {
      try {
        out.push(toRuntimeContainerStatus(await runtime.containerStatus(c.id), runtimeName));
      } catch (e) {
        if (e instanceof CriError && e.code === 5) continue; // removed meanwhile
        throw e;
      }
    }
    return sortNewestFirst(out);
  }

  /** §9.3. */
  private async manage(crr: ContainerRecreateRequest): Promise<{ requeueAfterMs?: number }> {
    const rt = runtimeTypeOf(crr);
    const runtime = 'runtime' in rt ? this.opts.runtimeByName(rt.runtime) : undefined;
    if (!runtime) {
      const err = 'error' in rt ? rt.error : `no runtime service named ${rt.runtime}`;
      await this.complete(crr, `failed to find runtime service: ${err}`);
      return {};
    }
    const runtimeName = (rt as { runtime: string }).runtime;
    const uid = crr.metadata.labels?.[LABEL_CRR_POD_UID] ?? '';
    const podStatus = await this.podStatus(runtime, runtimeName, uid);
    const now = this.clock.now();
    // §9.3 items 4–5.
    const computed = computeContainerStates(crr, podStatus, now);
    if (!statesEqual(computed, crr.status?.containerRecreateStates)) {
      await this.patchStates(crr, computed);
      return {};
    }
    // §9.3 item 6.
    const pod = { namespace: crr.metadata.namespace ?? '', name: crr.spec.podName, uid };
    let r = actionPass(crr, computed, podStatus);
    let states = r.states;
    while (r.kind === 'kill') {
      const spec = crr.spec.containers[r.index];
      let error: string | undefined;
      try {
        await killContainer({
          runtime,
          container: r.container,
          spec,
          graceSeconds: terminationGraceSeconds(crr),
          message: `Stopping container ${spec.name} by ContainerRecreateRequest ${crr.metadata.name}`,
          pod,
          clock: this.clock,
          logger: this.logger,
          httpGet: this.opts.httpGet,
          recordEvent: (ev) => {
            this.opts.kube.recordEvent(ev).catch(() => undefined);
          },
        });
        this.logger.info(
          { crr: crr.metadata.name, container: spec.name, id: r.container.id },
          'stopped container',
        );
      } catch (e) {
        error = (e as Error).message;
        this.logger.warn(
          { crr: crr.metadata.name, container: spec.name, err: error },
          'kill container failed',
        );
      }
      const k = applyKillResult(crr, r.states, r.index, error);
      states = k.states;
      if (k.next === 'stop') break;
      if (k.next === 'patch') {
        await this.patchStates(crr, states);
        return {};
      }
      r = actionPass(crr, states, podStatus, r.index + 1, r.completed);
      states = r.states;
    }
    if (r.kind === 'completeFailed') {
      await this.complete(crr, '', states);
      return {};
    }
    // §9.3 items 7–9.
    if (!statesEqual(states, crr.status?.containerRecreateStates)) {
      await this.patchStates(crr, states);
      return {};
    }
    if (r.kind === 'done' && r.completed === crr.spec.containers.length) {
      await this.complete(crr, '');
      return {};
    }
    const minStarted = crr.spec.strategy?.minStartedSeconds ?? 0;
    if (minStarted > 0) return { requeueAfterMs: minStarted * 1000 };
    return {};
  }

  /** For events and debugging: the object reference of a cached CRR. */
  refOf(namespace: string, name: string): ObjectReference | undefined {
    const c = this.cache.get(`${namespace}/${name}`);
    return c ? refOfObject(c) : undefined;
  }
}
