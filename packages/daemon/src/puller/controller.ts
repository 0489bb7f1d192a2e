// The image puller controller (docs/reference/daemon.md §7.2–§7.4): watches this node's NodeImage, keeps one
// worker pool per image and one worker per tag version, writes the NodeImage status through the
// throttled writer and requeues while pulls are in flight.
import type { ImageSpec, ImageTagStatus, NodeImage } from '@kruise-ts/api';
import type { Secret } from 'kubernetes-types/core/v1.js';
import { type Clock, type Rng, realClock } from '../clock';
import type { CriImageService } from '../cri/types';
import type { DockerConfig } from '../keyring';
import { type KubeAdapter, refOfObject, type StopWatch } from '../kube/adapter';
import { type Logger, silentLogger } from '../log';
import { WorkQueue } from '../queue';
import { planPoolSync, poolStatus } from './pool';
import {
  buildNodeImageStatus,
  DEFAULT_PULLER_TIMINGS,
  isStillPulling,
  type PullerTimings,
  pullerRequeueMs,
  type StatusWriterState,
  statusWriteDecision,
} from './status';
import { PullWorker } from './worker';

/** Options of {@link ImagePuller}. */
export interface ImagePullerOptions {
  nodeName: string;
  kube: KubeAdapter;
  image: CriImageService;
  clock?: Clock;
  rng?: Rng;
  logger?: Logger;
  timings?: Partial<PullerTimings>;
  /** Secret cache lifetime: base + uniform[0, jitter) (§7.4 item 1.1: 5–10 min). */
  secretCacheMs?: number;
  secretCacheJitterMs?: number;
  nodeDockerConfig?: DockerConfig;
}

interface Pool {
  spec: ImageSpec;
  secrets: Secret[];
  workers: Map<string, PullWorker>;
  stored: Map<string, ImageTagStatus>;
  active: boolean;
}

/** The puller of one node. `start` watches and serves; `stop` stops every worker. */
export class ImagePuller {
  private readonly clock: Clock;
  private readonly rng: Rng;
  private readonly logger: Logger;
  private readonly timings: PullerTimings;
  private readonly pools = new Map<string, Pool>();
  private readonly secretCache = new Map<string, { secret: Secret | undefined; expiresAt: number }>();
  private readonly queue: WorkQueue;
  private current: NodeImage | undefined;
  private writer: StatusWriterState = {};
  private stopWatch: StopWatch | undefined;

  constructor(private readonly opts: ImagePullerOptions) {
    this.clock = opts.clock ?? realClock;
    this.rng = opts.rng ?? Math.random;
    this.logger = (opts.logger ?? silentLogger()).child({ component: 'imagepuller' });
    this.timings = { ...DEFAULT_PULLER_TIMINGS, ...opts.timings };
    // §7.2 item 2: a single worker.
    this.queue = new WorkQueue((key) => this.sync(key), {
      clock: this.clock,
      rng: this.rng,
      workers: 1,
      onError: (key, e) =>
        this.logger.warn({ key, err: (e as Error).message }, 'sync failed, retrying with backoff'),
    });
  }

  /** §7.2 item 1: watch the node's NodeImage; add → enqueue, update → enqueue only if spec changed. */
  async start(): Promise<void> {
    this.stopWatch = await this.opts.kube.watchNodeImage(this.opts.nodeName, (ev) => {
      const obj = ev.object;
      if (ev.type === 'DELETED') {
        this.current = undefined;
        return;
      }
      const prev = this.current;
      this.current = obj;
      if (obj.metadata.deletionTimestamp) return;
      if (ev.type === 'ADDED' || JSON.stringify(prev?.spec) !== JSON.stringify(obj.spec))
        this.queue.add(this.opts.nodeName);
    });
  }

  /** Stops the watch, the queue and every worker. */
  async stop(): Promise<void> {
    this.stopWatch?.();
    await this.queue.shutdown();
    const done: Promise<void>[] = [];
    for (const p of this.pools.values()) done.push(...this.stopPool(p));
    this.pools.clear();
    await Promise.all(done);
  }

  private stopPool(p: Pool): Promise<void>[] {
    p.active = false;
    const done = [...p.workers.values()].map((w) => {
      w.stop();
      return w.done;
    });
    p.workers.clear();
    return done;
  }

  private async secretsOf(spec: ImageSpec): Promise<Secret[]> {
    const out: Secret[] = [];
    for (const ref of spec.pullSecrets ?? []) {
      const key = `${ref.namespace ?? ''}/${ref.name ?? ''}`;
      const now = this.clock.now();
      let entry = this.secretCache.get(key);
      if (!entry || entry.expiresAt <= now) {
        try {
          const secret = await this.opts.kube.getSecret(ref.namespace ?? '', ref.name ?? '');
          const ttl =
            (this.opts.secretCacheMs ?? 5 * 60_000) +
            Math.floor(this.rng() * (this.opts.secretCacheJitterMs ?? 5 * 60_000));
          entry = { secret, expiresAt: now + ttl };
          this.secretCache.set(key, entry);
        } catch (e) {
          // §7.4 item 1.1: logged (by name only) and skipped.
          this.logger.warn({ secret: key, err: (e as Error).message }, 'failed to get pull secret');
          continue;
        }
      }
      if (entry.secret) out.push(entry.secret);
    }
    return out;
  }

  /** §7.3: one sync of the NodeImage. Exposed for tests through the queue only. */
  private async sync(_key: string): Promise<{ requeueAfterMs?: number }> {
    const ni = this.current;
    if (!ni || ni.metadata.deletionTimestamp) return {};
    const images = ni.spec?.images ?? {};
    // §7.3 item 1: drop pools of images that left the spec.
    for (const [name, p] of this.pools) {
      if (!(name in images)) {
        this.stopPool(p);
        this.pools.delete(name);
      }
    }
    for (const [name, spec] of Object.entries(images)) {
      let pool = this.pools.get(name);
      if (!pool) {
        pool = { spec, secrets: [], workers: new Map(), stored: new Map(), active: true };
        this.pools.set(name, pool);
      }
      pool.secrets = await this.secretsOf(spec);
      pool.spec = spec;
      const running = [...pool.workers.values()].map((w) => ({ tag: w.tag, version: w.version }));
      const plan = planPoolSync(spec, ni.status?.imageStatuses?.[name], running, [...pool.stored.keys()]);
      for (const tag of plan.stop) {
        pool.workers.get(tag)?.stop();
        pool.workers.delete(tag);
      }
      for (const st of plan.finished) pool.stored.set(st.tag, st);
      for (const tag of plan.forget) pool.stored.delete(tag);
      for (const tagSpec of plan.start) this.startWorker(name, pool, tagSpec);
    }
    // §7.3 item 2.
    const pools: Record<string, ReturnType<typeof poolStatus>> = {};
    for (const [name, p] of this.pools) pools[name] = poolStatus(p.spec, p.stored);
    const status = buildNodeImageStatus(ni.spec, pools);
    // §7.3 item 3.
    const d = statusWriteDecision(status, this.writer, this.clock.now(), this.rng(), this.timings);
    if (d.decision === 'write') {
      const updated = await this.opts.kube.updateNodeImageStatus(ni, status);
      this.writer = d.state;
      if (this.current && this.current.metadata.resourceVersion === ni.metadata.resourceVersion)
        this.current = updated;
    } else {
      this.writer = d.state;
    }
    // §7.3 item 4.
    const pulling = d.decision === 'limited' || isStillPulling(ni.spec, status);
    return { requeueAfterMs: pullerRequeueMs(pulling, this.rng(), this.timings) };
  }

  private startWorker(name: string, pool: Pool, tag: ImageSpec['tags'][number]): void {
    const worker: PullWorker = new PullWorker(
      { name, tag, secrets: pool.secrets, sandboxConfig: pool.spec.sandboxConfig },
      {
        image: this.opts.image,
        clock: this.clock,
        logger: this.logger,
        nodeImageRef: refOfObject(
          this.current ?? {
            apiVersion: 'apps.kruise.io/v1alpha1',
            kind: 'NodeImage',
            metadata: { name: this.opts.nodeName },
          },
        ),
        nodeDockerConfig: this.opts.nodeDockerConfig,
        recordEvent: (ev) => {
          this.opts.kube
            .recordEvent(ev)
            .catch((e) => this.logger.warn({ err: (e as Error).message }, 'failed to record event'));
        },
      },
      // §7.4 item 5: workers report while the pool is active and they are its current worker.
      (st) => {
        if (pool.active && !worker.stopped && pool.workers.get(tag.tag) === worker)
          pool.stored.set(tag.tag, st);
      },
    );
    pool.workers.set(tag.tag, worker);
    worker.start();
  }
}
