// The kubelet model: for every pod bound to a node it pulls images (a per-node
// image cache; concurrent pulls of one image share the pull), starts the
// containers, reports readiness after the readiness delay, restarts only the
// container whose image changed in place (reporting a new imageID), crashes or
// fails readiness on a schedule or with a seeded probability, recomputes the
// Ready condition from the readiness gates, and terminates deleted pods within
// terminationGracePeriodSeconds. A failed node's kubelet keeps running its
// containers but cannot write status until the node recovers.
import type { KubeObject } from '@kruise-ts/api';
import type { Container, Node, Pod } from 'kubernetes-types/core/v1.js';
import type { KubeletPayload, SimContext } from './context';
import { objectKey } from './keys';
import { type KubeEventRecord, kubeMessages } from './kubeEvents';
import { NodeSide } from './nodeSide';
import { PodNetwork } from './podNetwork';
import { type ContainerRuntime, composeStatus, imageIDOf, type PodRuntime, podLabel } from './podStatus';

/** The kubelets of all nodes (one model, per-node image caches). */
export class Kubelet {
  private pods = new Map<string, PodRuntime>();
  private dirty = new Set<string>();
  /** node → images present. */
  private cache = new Map<string, Set<string>>();
  /** node → image → pods waiting for the pull. */
  private pulling = new Map<string, Map<string, Set<string>>>();
  /** `node\0image` → when its pull began (ms), for the `Pulled` event. */
  private pullStarted = new Map<string, number>();
  /** Pod addresses from each node's pod CIDR (podNetwork.ts). */
  private readonly network = new PodNetwork();
  /** image → its digest (`imageIDOf`), made once per image since every container start reports one. */
  private readonly imageIDs = new Map<string, string>();
  private containerCounter = 0;
  /** Containers started so far (for the summary). */
  containersStarted = 0;
  /** The kruise-daemon side of each node: NodeImage pulls and CRR restarts (nodeSide.ts). */
  readonly nodeSide: NodeSide;

  constructor(private readonly ctx: SimContext) {
    this.nodeSide = new NodeSide(ctx, this);
  }

  /** Marks a pod for a sync pass (called from the store's change notifications). */
  touch(podKey: string): void {
    this.dirty.add(podKey);
  }

  /** True when any pod waits for a sync. */
  get pending(): boolean {
    return this.dirty.size > 0 || this.nodeSide.pending;
  }

  /** Images cached on a node (pre-pulled images can be seeded by the scenario). */
  images(node: string): Set<string> {
    let s = this.cache.get(node);
    if (!s) {
      s = new Set();
      this.cache.set(node, s);
    }
    return s;
  }

  /** Syncs every touched pod: start, in-place restarts, termination, status. */
  sync(): void {
    do {
      while (this.dirty.size > 0) {
        const keys = [...this.dirty];
        this.dirty.clear();
        for (let i = 0; i < keys.length; i++) this.syncPod(keys[i]);
      }
      if (this.nodeSide.pending) this.nodeSide.sync();
    } while (this.dirty.size > 0);
  }

  /**
   * Pulls an image on a node for the daemon (a NodeImage tag), sharing the per-node cache and
   * any pull already running. Returns true when the image is already present.
   */
  pullForDaemon(node: string, image: string): boolean {
    if (this.images(node).has(image)) return true;
    this.startPull(node, image);
    return false;
  }

  /**
   * Stops a running container the way a ContainerRecreateRequest does (docs/reference/daemon.md §9.4): it
   * exits within min(grace, termination time) and the kubelet restarts it like any exited
   * container (restartCount + 1, a new containerID once it runs, §9.5). False when not running.
   */
  stopContainer(podUid: string, container: string, graceSeconds: number): boolean {
    const rt = this.pods.get(podUid);
    const c = rt?.containers.get(container);
    if (!rt || !c || rt.terminating || c.state !== 'running') return false;
    c.token++;
    c.state = 'stopped';
    c.ready = false;
    c.finishedAt = this.ctx.clock.now();
    this.ctx.log({
      type: 'ContainerRestarting',
      object: podLabel(rt),
      source: rt.source,
      detail: { container: c.name, image: c.image, reason: 'ContainerRecreateRequest' },
    });
    this.event(rt, c.name, 'Normal', 'Killing', () => kubeMessages.stopping(c.name));
    const ms = Math.min(Math.max(graceSeconds, 2) * 1000, this.ctx.jittered(this.ctx.timings.terminationMs));
    this.ctx.schedule(ms, { type: 'containerRestart', podUid: rt.uid, container: c.name, token: c.token });
    this.touch(rt.key);
    return true;
  }

  /** Re-reports the status of every pod on a node (after it recovers). */
  resyncNode(node: string): void {
    for (const p of this.ctx.store.listPodsOnNode(node)) {
      const rt = p.metadata.uid ? this.pods.get(p.metadata.uid) : undefined;
      if (rt?.awaitingFinalDelete) {
        this.ctx.log({ type: 'PodTerminated', object: podLabel(rt), source: rt.source });
        this.forget(rt);
        this.ctx.store.finishPodTermination(rt.key, rt.source);
      } else this.touch(objectKey(p));
    }
  }

  /** Handles a kubelet event from the queue. */
  handle(ev: KubeletPayload): void {
    const now = this.ctx.clock.elapsedMs;
    switch (ev.type) {
      case 'imagePulled': {
        this.images(ev.node).add(ev.image);
        const waiting = this.pulling.get(ev.node)?.get(ev.image);
        this.pulling.get(ev.node)?.delete(ev.image);
        this.ctx.log({
          type: 'ImagePulled',
          object: `Node/${ev.node}`,
          source: `kubelet:${ev.node}`,
          detail: { image: ev.image },
        });
        this.nodeSide.onImagePulled(ev.node, ev.image);
        const pullKey = `${ev.node}\0${ev.image}`;
        const pullMs = now - (this.pullStarted.get(pullKey) ?? now);
        this.pullStarted.delete(pullKey);
        for (const uid of [...(waiting ?? [])].sort()) {
          const rt = this.pods.get(uid);
          if (!rt || rt.terminating) continue;
          for (const c of rt.containers.values())
            if (c.state === 'pulling' && c.image === ev.image) {
              const waited = now - (c.pullWaitFrom ?? now);
              this.event(rt, c.name, 'Normal', 'Pulled', () => kubeMessages.pulled(ev.image, pullMs, waited));
              this.startContainer(rt, c);
            }
        }
        return;
      }
      case 'containerStarted':
      case 'containerReady':
      case 'containerCrash':
      case 'containerRestart': {
        const rt = this.pods.get(ev.podUid);
        const c = rt?.containers.get(ev.container);
        if (!rt || !c || c.token !== ev.token || rt.terminating) return;
        if (ev.type === 'containerStarted') this.onStarted(rt, c, now);
        else if (ev.type === 'containerReady') {
          if (c.state !== 'running') return;
          c.ready = true;
          c.unreadyUntil = undefined;
          if (this.ctx.logs('ContainerReady'))
            this.ctx.log({
              type: 'ContainerReady',
              object: podLabel(rt),
              source: rt.source,
              detail: { container: c.name },
            });
        } else if (ev.type === 'containerCrash') this.crash(rt, c, 'Error');
        else {
          // Restart after the crash back-off.
          c.state = 'pulling';
          c.restartCount++;
          this.ensureImage(rt, c);
          return;
        }
        this.touch(rt.key);
        return;
      }
      case 'podTerminated': {
        const rt = this.pods.get(ev.podUid);
        if (!rt || rt.terminateToken !== ev.token) return;
        if (this.ctx.nodeFailed(rt.node)) {
          // The containers stopped, but the kubelet cannot reach the API server: the final delete waits for recovery.
          rt.awaitingFinalDelete = true;
          return;
        }
        this.ctx.log({ type: 'PodTerminated', object: podLabel(rt), source: rt.source });
        this.forget(rt);
        this.ctx.store.finishPodTermination(rt.key, rt.source);
        return;
      }
      default:
        return;
    }
  }

  /** Crashes a container (scheduled failure or seeded probability). */
  crash(rt: PodRuntime, c: ContainerRuntime, reason: string): void {
    c.token++;
    c.state = 'crashed';
    c.ready = false;
    c.finishedAt = this.ctx.clock.now();
    this.ctx.log({
      type: 'ContainerCrashed',
      object: podLabel(rt),
      source: rt.source,
      detail: { container: c.name, reason },
    });
    this.event(rt, c.name, 'Warning', 'BackOff', () => {
      const [, , namespace, name] = rt.key.split('/');
      return kubeMessages.backOff(c.name, name, namespace, rt.uid);
    });
    this.ctx.schedule(this.ctx.timings.crashBackoffMs, {
      type: 'containerRestart',
      podUid: rt.uid,
      container: c.name,
      token: c.token,
    });
    this.touch(rt.key);
  }

  /** Makes a running container fail its readiness probe for `ms`. */
  failReadiness(rt: PodRuntime, c: ContainerRuntime, ms: number): void {
    if (c.state !== 'running') return;
    c.token++;
    c.ready = false;
    c.unreadyUntil = this.ctx.clock.elapsedMs + ms;
    this.ctx.log({
      type: 'ReadinessFailed',
      object: podLabel(rt),
      source: rt.source,
      detail: { container: c.name, forSeconds: ms / 1000 },
    });
    this.ctx.schedule(ms, { type: 'containerReady', podUid: rt.uid, container: c.name, token: c.token });
    this.touch(rt.key);
  }

  /** The runtime of a pod and its containers, for scheduled failures. */
  runtime(uid: string): { rt: PodRuntime; containers: ContainerRuntime[] } | undefined {
    const rt = this.pods.get(uid);
    return rt ? { rt, containers: [...rt.containers.values()] } : undefined;
  }

  // ---------------------------------------------------------------- internals

  /**
   * Raises a kubelet event about a pod (and a container of it) when anyone listens; the message
   * is only built then.
   */
  private event(
    rt: PodRuntime,
    container: string | undefined,
    type: KubeEventRecord['type'],
    reason: string,
    message: () => string,
  ): void {
    const emit = this.ctx.kubeEvent;
    if (!emit) return;
    const [, , namespace, name] = rt.key.split('/');
    const involved: KubeEventRecord['involved'] = { kind: 'Pod', namespace, name, uid: rt.uid };
    if (container !== undefined) involved.fieldPath = `spec.containers{${container}}`;
    emit({ involved, type, reason, message: message(), component: 'kubelet', host: rt.node });
  }

  /** Drops a terminated pod's runtime and gives its address back. */
  private forget(rt: PodRuntime): void {
    this.pods.delete(rt.uid);
    this.network.release(rt.node, rt.podIP);
  }

  private syncPod(key: string): void {
    const pod = this.ctx.store.getByKey(key) as (KubeObject & Pod) | undefined;
    if (!pod?.spec?.nodeName || !pod.metadata?.uid) return;
    const uid = pod.metadata.uid;
    let rt = this.pods.get(uid);
    if (!rt) {
      const node = pod.spec.nodeName;
      const addr = this.network.allocate(
        this.ctx.store.get('v1', 'Node', undefined, node) as Node | undefined,
        node,
      );
      rt = {
        uid,
        key,
        node: pod.spec.nodeName,
        source: `kubelet:${pod.spec.nodeName}`,
        containers: new Map(),
        terminating: false,
        terminateToken: 0,
        startTime: this.ctx.clock.now(),
        podIP: addr.podIP,
        hostIP: addr.hostIP,
      };
      this.pods.set(uid, rt);
    }
    if (pod.metadata.deletionTimestamp && !rt.terminating) this.terminate(rt, pod);
    if (!rt.terminating) {
      for (const spec of pod.spec.containers ?? []) this.syncContainer(rt, spec);
    }
    this.writeStatus(rt, pod);
  }

  private syncContainer(rt: PodRuntime, spec: Container): void {
    const c = rt.containers.get(spec.name);
    const image = spec.image ?? '';
    if (!c) {
      const nc: ContainerRuntime = {
        name: spec.name,
        image,
        runningImage: image,
        imageID: '',
        state: 'pulling',
        ready: false,
        restartCount: 0,
        token: 0,
      };
      rt.containers.set(spec.name, nc);
      this.ensureImage(rt, nc);
      return;
    }
    if (c.image !== image) {
      // In-place update: only this container is killed and restarted with the new image.
      c.token++;
      c.image = image;
      c.ready = false;
      if (c.state === 'running') {
        c.restartCount++;
        c.finishedAt = this.ctx.clock.now();
        this.event(rt, c.name, 'Normal', 'Killing', () => kubeMessages.definitionChanged(c.name));
      }
      c.state = 'pulling';
      this.ctx.log({
        type: 'ContainerRestarting',
        object: podLabel(rt),
        source: rt.source,
        detail: { container: c.name, image, reason: 'image changed' },
      });
      this.ensureImage(rt, c);
    }
  }

  private ensureImage(rt: PodRuntime, c: ContainerRuntime): void {
    const cached = this.images(rt.node);
    if (cached.has(c.image)) {
      this.event(rt, c.name, 'Normal', 'Pulled', () => kubeMessages.alreadyPresent(c.image));
      this.startContainer(rt, c);
      return;
    }
    c.pullWaitFrom = this.ctx.clock.elapsedMs;
    this.event(rt, c.name, 'Normal', 'Pulling', () => kubeMessages.pulling(c.image));
    this.startPull(rt.node, c.image).add(rt.uid);
  }

  /** Starts (or joins) the pull of an image on a node; returns the pods waiting for it. */
  private startPull(node: string, image: string): Set<string> {
    let byImage = this.pulling.get(node);
    if (!byImage) {
      byImage = new Map();
      this.pulling.set(node, byImage);
    }
    let waiting = byImage.get(image);
    if (!waiting) {
      waiting = new Set();
      byImage.set(image, waiting);
      const t = this.ctx.timings.imagePull;
      const ms = this.ctx.jittered(
        t.nodes?.[node]?.[image] ?? t.nodes?.[node]?.['*'] ?? t.images[image] ?? t.defaultMs,
      );
      this.ctx.log({
        type: 'ImagePulling',
        object: `Node/${node}`,
        source: `kubelet:${node}`,
        detail: { image, seconds: ms / 1000 },
      });
      this.pullStarted.set(`${node}\0${image}`, this.ctx.clock.elapsedMs);
      this.ctx.schedule(ms, { type: 'imagePulled', node, image });
    }
    return waiting;
  }

  private startContainer(rt: PodRuntime, c: ContainerRuntime): void {
    c.state = 'starting';
    c.token++;
    this.ctx.schedule(this.ctx.jittered(this.ctx.timings.containerStartMs), {
      type: 'containerStarted',
      podUid: rt.uid,
      container: c.name,
      token: c.token,
    });
  }

  private imageID(image: string): string {
    let id = this.imageIDs.get(image);
    if (id === undefined) {
      id = imageIDOf(image);
      this.imageIDs.set(image, id);
    }
    return id;
  }

  private onStarted(rt: PodRuntime, c: ContainerRuntime, now: number): void {
    if (c.state !== 'starting') return;
    c.state = 'running';
    c.containerID = `containerd://${(++this.containerCounter).toString(16).padStart(64, '0')}`;
    c.runningImage = c.image;
    c.imageID = this.imageID(c.image);
    c.startedAt = this.ctx.clock.now();
    c.ready = false;
    this.containersStarted++;
    this.event(rt, c.name, 'Normal', 'Created', () => kubeMessages.created(c.name));
    this.event(rt, c.name, 'Normal', 'Started', () => kubeMessages.started(c.name));
    if (this.ctx.logs('ContainerStarted'))
      this.ctx.log({
        type: 'ContainerStarted',
        object: podLabel(rt),
        source: rt.source,
        detail: { container: c.name, image: c.image },
      });
    const t = this.ctx.timings;
    let readyIn = this.ctx.jittered(t.readinessDelayMs);
    if (t.readinessFailureProbability > 0 && this.ctx.rng.next() < t.readinessFailureProbability) {
      readyIn += t.readinessFailureMs;
      this.ctx.log({
        type: 'ReadinessFailed',
        object: podLabel(rt),
        source: rt.source,
        detail: { container: c.name, forSeconds: t.readinessFailureMs / 1000 },
      });
    }
    c.unreadyUntil = now + readyIn;
    this.ctx.schedule(readyIn, { type: 'containerReady', podUid: rt.uid, container: c.name, token: c.token });
    if (t.crashProbability > 0 && this.ctx.rng.next() < t.crashProbability) {
      const at = Math.max(1000, Math.floor(this.ctx.rng.next() * t.crashWithinMs));
      this.ctx.schedule(at, { type: 'containerCrash', podUid: rt.uid, container: c.name, token: c.token });
    }
  }

  private terminate(rt: PodRuntime, pod: Pod): void {
    rt.terminating = true;
    rt.terminateToken++;
    for (const c of rt.containers.values()) {
      if (c.state === 'running')
        this.event(rt, c.name, 'Normal', 'Killing', () => kubeMessages.stopping(c.name));
      c.token++;
      c.ready = false;
    }
    const graceMs =
      (pod.metadata?.deletionGracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30) * 1000;
    const ms = Math.min(graceMs, this.ctx.jittered(this.ctx.timings.terminationMs));
    this.ctx.log({
      type: 'PodTerminating',
      object: podLabel(rt),
      source: rt.source,
      detail: { gracePeriodSeconds: graceMs / 1000 },
    });
    this.ctx.schedule(ms, { type: 'podTerminated', podUid: rt.uid, token: rt.terminateToken });
  }

  /** Writes the kubelet-owned part of the status when it changed (not while the node is failed). */
  private writeStatus(rt: PodRuntime, pod: Pod): void {
    if (this.ctx.nodeFailed(rt.node)) return;
    // composeStatus hands back the pod's own status object when there is nothing new to report
    // (most syncs after the first report something: ~6 writes per pod over a rollout).
    const next = composeStatus(pod, rt, this.ctx.clock.now());
    if (next === pod.status) return;
    this.ctx.store.updateStatusAt(rt.key, pod as KubeObject & Pod, next, rt.source, 'KubeletStatus');
  }
}
