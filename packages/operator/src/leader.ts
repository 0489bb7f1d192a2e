// Leader election with a coordination.k8s.io/v1 Lease (docs/reference/operator.md §3.1): every retry
// period each replica reads the Lease; it takes it when the Lease is free, expired (not renewed
// for leaseDuration by this replica's own clock, like client-go's observed time), or already its
// own, writing with the read resourceVersion so two replicas never both win (409 → lose the
// round). The leader renews; if it cannot renew within renewDeadline it loses leadership (O3.2).
// On graceful shutdown the leader releases the Lease so a standby takes over at once.
import type { KubeClient } from './kube/client';
import { objectPath, resourceFor } from './kube/resources';
import type { Logger } from './log';

/** Leader-election settings (flags `--leader-election-*`). */
export interface LeaderElectionOptions {
  namespace: string;
  name: string;
  identity: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

/** Lease spec fields used. */
interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

interface Lease {
  apiVersion: 'coordination.k8s.io/v1';
  kind: 'Lease';
  metadata: { name: string; namespace: string; resourceVersion?: string };
  spec: LeaseSpec;
}

/** A MicroTime: RFC 3339 with microseconds. */
export function microTime(d: Date): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

const LEASE = resourceFor('coordination.k8s.io/v1', 'Lease');

/** Runs the election loop; calls back on gaining and losing leadership. */
export class LeaderElector {
  private leader = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private observed = '';
  private observedAt = 0;
  private lastRenew = 0;
  private lease: Lease | undefined;

  constructor(
    private readonly client: KubeClient,
    private readonly o: LeaderElectionOptions,
    private readonly cb: { onStartedLeading(): void; onStoppedLeading(): void },
    private readonly log: Logger,
  ) {}

  isLeader(): boolean {
    return this.leader;
  }

  start(): void {
    this.stopped = false;
    void this.tick();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick(), this.o.retryPeriodMs);
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    let ok = false;
    try {
      ok = await this.tryAcquireOrRenew();
    } catch (err) {
      this.log.debug({ err: (err as Error).message }, 'leader election round failed');
    }
    const now = Date.now();
    if (ok) {
      this.lastRenew = now;
      if (!this.leader) {
        this.leader = true;
        this.log.info(
          { lease: `${this.o.namespace}/${this.o.name}`, identity: this.o.identity },
          'became leader',
        );
        this.cb.onStartedLeading();
      }
    } else if (this.leader && now - this.lastRenew > this.o.renewDeadlineMs) {
      this.leader = false;
      this.log.warn({ identity: this.o.identity }, 'leadership lost');
      this.cb.onStoppedLeading();
    }
    this.schedule();
  }

  private path(): string {
    return objectPath(LEASE, this.o.namespace, this.o.name);
  }

  /** One round: true when this replica holds the Lease afterwards. */
  async tryAcquireOrRenew(): Promise<boolean> {
    const now = new Date();
    const mine: LeaseSpec = {
      holderIdentity: this.o.identity,
      leaseDurationSeconds: Math.ceil(this.o.leaseDurationMs / 1000),
      renewTime: microTime(now),
    };
    const got = await this.client.request('GET', this.path());
    if (got.status === 404) {
      const lease: Lease = {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: this.o.name, namespace: this.o.namespace },
        spec: { ...mine, acquireTime: microTime(now), leaseTransitions: 0 },
      };
      const res = await this.client.request(
        'POST',
        `/apis/coordination.k8s.io/v1/namespaces/${this.o.namespace}/leases`,
        { body: lease },
      );
      if (res.status >= 200 && res.status < 300) {
        this.lease = res.body as Lease;
        return true;
      }
      return false;
    }
    if (got.status !== 200) return false;
    const cur = got.body as Lease;
    const spec = cur.spec ?? {};
    const fingerprint = `${spec.holderIdentity}|${spec.renewTime}|${cur.metadata.resourceVersion}`;
    if (fingerprint !== this.observed) {
      this.observed = fingerprint;
      this.observedAt = now.getTime();
    }
    const held = !!spec.holderIdentity && spec.holderIdentity !== this.o.identity;
    const durationMs = (spec.leaseDurationSeconds ?? 0) * 1000;
    if (held && this.observedAt + durationMs > now.getTime()) return false;
    const takeover = spec.holderIdentity !== this.o.identity;
    const next: Lease = {
      ...cur,
      spec: {
        ...spec,
        ...mine,
        acquireTime: takeover ? microTime(now) : spec.acquireTime,
        leaseTransitions: (spec.leaseTransitions ?? 0) + (takeover && spec.holderIdentity ? 1 : 0),
      },
    };
    // optimistic concurrency: the read resourceVersion travels with the update (409 → not ours)
    const res = await this.client.request('PUT', this.path(), { body: next });
    if (res.status >= 200 && res.status < 300) {
      this.lease = res.body as Lease;
      return true;
    }
    return false;
  }

  /** Stops campaigning; a leader releases the Lease (holder cleared, 1 s duration). */
  async stop(release = true): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.leader && release && this.lease) {
      const body: Lease = {
        ...this.lease,
        spec: {
          ...this.lease.spec,
          holderIdentity: '',
          leaseDurationSeconds: 1,
          renewTime: microTime(new Date()),
        },
      };
      await this.client.request('PUT', this.path(), { body }).catch(() => undefined);
    }
    if (this.leader) {
      this.leader = false;
      this.cb.onStoppedLeading();
    }
  }
}
