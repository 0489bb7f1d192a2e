// Leader election with a coordination.k8s.io/v1 Lease (docs/reference/operator.md §3.1): every retry
// period each replica reads the Lease; it takes it when the Lease is free, expired (not renewed
// for leaseDuration by this replica's own clock, like client-go's observed time), or already its
// own, writing with the read resourceVersion so two replicas never both win (409 → lose the
// round). The leader renews; if it cannot renew within renewDeadline it loses leadership (O3.2).
// On graceful shutdown the leader releases the Lease so a standby takes over at once. The Lease is
// read and written through client-node's CoordinationV1Api (over the operator's KubeClient).
import { ApiException, CoordinationV1Api, type V1Lease, V1MicroTime } from '@kubernetes/client-node';
import type { KubeClient } from './kube/client';
import { typedApiConfiguration } from './kube/typedApi';
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

/** A MicroTime: RFC 3339 with microseconds (client-node's V1MicroTime prints it so). */
export function microTime(d: Date): string {
  return new V1MicroTime(d.getTime()).toISOString();
}

/** A 409 (another replica wrote first) or 404 answer; anything else is a failed round. */
function statusOf(err: unknown): number | undefined {
  return err instanceof ApiException ? err.code : undefined;
}

/** Runs the election loop; calls back on gaining and losing leadership. */
export class LeaderElector {
  private leader = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private observed = '';
  private observedAt = 0;
  private lastRenew = 0;
  private lease: V1Lease | undefined;
  private readonly leases: CoordinationV1Api;

  constructor(
    client: KubeClient,
    private readonly o: LeaderElectionOptions,
    private readonly cb: { onStartedLeading(): void; onStoppedLeading(): void },
    private readonly log: Logger,
  ) {
    this.leases = new CoordinationV1Api(typedApiConfiguration(client));
  }

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

  /** The Lease, or undefined when there is none (404). */
  private async read(): Promise<V1Lease | undefined> {
    try {
      return await this.leases.readNamespacedLease({ name: this.o.name, namespace: this.o.namespace });
    } catch (err) {
      if (statusOf(err) === 404) return undefined;
      throw err;
    }
  }

  /** Writes `body` (a 409 conflict or any failure answers false). */
  private async write(body: V1Lease, create: boolean): Promise<boolean> {
    const req = { name: this.o.name, namespace: this.o.namespace, body };
    try {
      this.lease = create
        ? await this.leases.createNamespacedLease(req)
        : await this.leases.replaceNamespacedLease(req);
      return true;
    } catch (err) {
      if (statusOf(err) !== 409) this.log.debug({ err: (err as Error).message }, 'lease write failed');
      return false;
    }
  }

  /** One round: true when this replica holds the Lease afterwards. */
  async tryAcquireOrRenew(): Promise<boolean> {
    const now = new Date();
    const renewTime = new V1MicroTime(now.getTime());
    const mine = {
      holderIdentity: this.o.identity,
      leaseDurationSeconds: Math.ceil(this.o.leaseDurationMs / 1000),
      renewTime,
    };
    const cur = await this.read();
    if (!cur) {
      return this.write(
        {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name: this.o.name, namespace: this.o.namespace },
          spec: { ...mine, acquireTime: renewTime, leaseTransitions: 0 },
        },
        true,
      );
    }
    const spec = cur.spec ?? {};
    const fingerprint = `${spec.holderIdentity}|${String(spec.renewTime)}|${cur.metadata?.resourceVersion}`;
    if (fingerprint !== this.observed) {
      this.observed = fingerprint;
      this.observedAt = now.getTime();
    }
    const held = !!spec.holderIdentity && spec.holderIdentity !== this.o.identity;
    const durationMs = (spec.leaseDurationSeconds ?? 0) * 1000;
    if (held && this.observedAt + durationMs > now.getTime()) return false;
    const takeover = spec.holderIdentity !== this.o.identity;
    // optimistic concurrency: the read resourceVersion travels with the update (409 → not ours)
    return this.write(
      {
        ...cur,
        spec: {
          ...spec,
          ...mine,
          acquireTime: takeover ? renewTime : spec.acquireTime,
          leaseTransitions: (spec.leaseTransitions ?? 0) + (takeover && spec.holderIdentity ? 1 : 0),
        },
      },
      false,
    );
  }

  /** Stops campaigning; a leader releases the Lease (holder cleared, 1 s duration). */
  async stop(release = true): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.leader && release && this.lease) {
      await this.write(
        {
          ...this.lease,
          spec: {
            ...this.lease.spec,
            holderIdentity: '',
            leaseDurationSeconds: 1,
            renewTime: new V1MicroTime(Date.now()),
          },
        },
        false,
      );
    }
    if (this.leader) {
      this.leader = false;
      this.cb.onStoppedLeading();
    }
  }
}
