import { ANNOTATION_CRR_SYNC_CONTAINER_STATUSES, type ContainerRecreateRequest } from '@kruise-ts/api';
import { describe, expect, it } from 'vitest';
import {
  CriError,
  CrrDaemonController,
  type EventRecord,
  InMemoryKube,
  killContainer,
  silentLogger,
} from '../src/index';
import { FakeClock } from './support/fakeClock';
import { FakeRuntime } from './support/fakeRuntime';

const UID = 'pod-uid';

function setup() {
  const clock = new FakeClock(Date.parse('2024-01-01T00:00:00Z'));
  const kube = new InMemoryKube({ now: () => clock.now() });
  const rt = new FakeRuntime();
  const ctl = new CrrDaemonController({
    nodeName: 'n1',
    kube,
    runtimeByName: (n) => (n === 'containerd' ? rt : undefined),
    clock,
    rng: () => 0,
  });
  return { clock, kube, rt, ctl };
}

function newCrr(
  name: string,
  containers: { name: string; id: string }[],
  strategy: Record<string, unknown> = {},
  preStop?: string[],
): ContainerRecreateRequest {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'ContainerRecreateRequest',
    metadata: {
      namespace: 'ns',
      name,
      labels: {
        'crr.apps.kruise.io/node-name': 'n1',
        'crr.apps.kruise.io/active': 'true',
        'crr.apps.kruise.io/pod-uid': UID,
      },
    },
    spec: {
      podName: 'p',
      containers: containers.map((c) => ({
        name: c.name,
        statusContext: { containerID: `containerd://${c.id}`, restartCount: 0 },
        ...(preStop ? { preStop: { exec: { command: preStop } } } : {}),
      })),
      strategy,
    },
  };
}

const get = (kube: InMemoryKube, name: string) =>
  kube.get<ContainerRecreateRequest>('ContainerRecreateRequest', 'ns', name) as ContainerRecreateRequest;

function annotate(kube: InMemoryKube, name: string, entries: unknown[]) {
  kube.mutate<ContainerRecreateRequest>('ContainerRecreateRequest', 'ns', name, (c) => ({
    ...c,
    metadata: {
      ...c.metadata,
      annotations: {
        ...c.metadata.annotations,
        [ANNOTATION_CRR_SYNC_CONTAINER_STATUSES]: JSON.stringify(entries),
      },
    },
  }));
}

describe('§9.2–§9.5 CRR daemon controller (in-memory API, fake CRI)', () => {
  it('picks, runs preStop, stops within the grace period, waits for kubelet, then Succeeded and Completed', async () => {
    const t = setup();
    const c0 = t.rt.add(UID, 'app', 0, t.clock.now() - 60_000);
    await t.clock.advance(1_000);
    t.kube.create(
      newCrr('r1', [{ name: 'app', id: c0.id }], { terminationGracePeriodSeconds: 20 }, [
        'sh',
        '-c',
        'drain',
      ]),
    );
    await t.ctl.start();
    await t.clock.advance(1_000);
    expect(get(t.kube, 'r1').status).toMatchObject({
      phase: 'Recreating',
      containerRecreateStates: [{ name: 'app', phase: 'Recreating', isKilled: true }],
    });
    expect(t.rt.execs).toEqual([{ id: c0.id, cmd: ['sh', '-c', 'drain'] }]);
    expect(t.rt.stops).toEqual([{ id: c0.id, timeout: 20, timeoutMs: 25_000 }]);
    // Kubelet restarts it; the controller writes the sync annotation.
    const c1 = t.rt.add(UID, 'app', 1, t.clock.now());
    await t.clock.advance(1_000);
    annotate(t.kube, 'r1', [
      { name: 'app', ready: true, restartCount: 1, containerID: `containerd://${c1.id}` },
    ]);
    await t.clock.advance(1_000);
    const done = get(t.kube, 'r1');
    expect(done.status).toEqual({
      phase: 'Completed',
      completionTime: '2024-01-01T00:00:03Z',
      message: '',
      containerRecreateStates: [{ name: 'app', phase: 'Succeeded', isKilled: true }],
    });
    expect(t.rt.stops).toHaveLength(1);
    expect(t.kube.events.map((e) => e.reason)).toEqual(['Killing']);
    await t.ctl.stop();
  });

  it('§9.3 item 1: an unknown runtime completes the CRR with "failed to find runtime service: …"', async () => {
    const t = setup();
    const c = newCrr('r1', [{ name: 'app', id: 'x' }]);
    c.spec.containers[0].statusContext = { containerID: 'docker://x', restartCount: 0 };
    t.kube.create(c);
    await t.ctl.start();
    await t.clock.advance(1_000);
    expect(get(t.kube, 'r1').status).toMatchObject({
      phase: 'Completed',
      message: 'failed to find runtime service: no runtime service named docker',
    });
    await t.ctl.stop();
  });

  it('§9.3 item 6: a stop error under failurePolicy Fail marks the container Failed, then completes the CRR', async () => {
    const t = setup();
    const c0 = t.rt.add(UID, 'app', 0, t.clock.now() - 60_000);
    t.rt.stopError = new CriError(2, 'boom');
    await t.clock.advance(1_000);
    t.kube.create(newCrr('r1', [{ name: 'app', id: c0.id }]));
    await t.ctl.start();
    await t.clock.advance(2_000);
    expect(get(t.kube, 'r1').status).toMatchObject({
      phase: 'Completed',
      message: '',
      containerRecreateStates: [
        {
          name: 'app',
          phase: 'Failed',
          message: 'kill container error: rpc error: code = Unknown desc = boom',
        },
      ],
    });
    await t.ctl.stop();
  });

  it('§9.2 item 3.4–3.5: one CRR per pod at a time; a newer one waits in Pending', async () => {
    const t = setup();
    const c0 = t.rt.add(UID, 'app', 0, t.clock.now() - 60_000);
    await t.clock.advance(1_000);
    t.kube.create(newCrr('r1', [{ name: 'app', id: c0.id }]));
    await t.clock.advance(1_000);
    t.kube.create(newCrr('r2', [{ name: 'app', id: c0.id }]));
    await t.ctl.start();
    await t.clock.advance(1_000);
    expect(get(t.kube, 'r1').status?.phase).toBe('Recreating');
    expect(get(t.kube, 'r2').status?.phase).toBe('Pending');
    expect(t.rt.stops).toHaveLength(1);
    await t.ctl.stop();
  });

  it('§9.3 item 6: orderedRecreate kills the next container only after the previous one came back', async () => {
    const t = setup();
    const a0 = t.rt.add(UID, 'a', 0, t.clock.now() - 60_000);
    const b0 = t.rt.add(UID, 'b', 0, t.clock.now() - 60_000);
    await t.clock.advance(1_000);
    t.kube.create(
      newCrr(
        'r1',
        [
          { name: 'a', id: a0.id },
          { name: 'b', id: b0.id },
        ],
        { orderedRecreate: true },
      ),
    );
    await t.ctl.start();
    await t.clock.advance(2_000);
    expect(t.rt.stops.map((s) => s.id)).toEqual([a0.id]);
    const a1 = t.rt.add(UID, 'a', 1, t.clock.now());
    await t.clock.advance(1_000); // §9.3 item 4.5: now − startedAt must exceed minStartedSeconds (0)
    annotate(t.kube, 'r1', [
      { name: 'a', ready: true, restartCount: 1, containerID: `containerd://${a1.id}` },
    ]);
    await t.clock.advance(2_000);
    expect(t.rt.stops.map((s) => s.id)).toEqual([a0.id, b0.id]);
    expect(get(t.kube, 'r1').status?.containerRecreateStates).toEqual([
      { name: 'a', phase: 'Succeeded', isKilled: true },
      { name: 'b', phase: 'Recreating', isKilled: true },
    ]);
    await t.ctl.stop();
  });
});

describe('§9.4 kill', () => {
  function killWith(
    rt: FakeRuntime,
    grace: number,
    preStop: Record<string, unknown> | undefined,
    clock = new FakeClock(),
  ) {
    const events: EventRecord[] = [];
    const c = rt.add('u', 'app', 0, clock.now());
    const p = killContainer({
      runtime: rt,
      container: {
        id: `containerd://${c.id}`,
        runtimeId: c.id,
        name: 'app',
        restartCount: 0,
        state: 'running',
        createdAtNs: 1n,
      },
      spec: { name: 'app', preStop: preStop as never, ports: [{ name: 'http', containerPort: 8080 }] },
      graceSeconds: grace,
      message: 'Stopping container app by ContainerRecreateRequest r1',
      pod: { namespace: 'ns', name: 'p', uid: 'u' },
      clock,
      logger: silentLogger(),
      recordEvent: (e) => events.push(e),
      httpGet: async () => 500,
    });
    return { p, events, clock };
  }

  it('item 3: an exec hook exiting non-zero is a FailedPreStopHook warning and the stop still happens', async () => {
    const rt = new FakeRuntime();
    rt.execResult = async () => ({ stdout: Buffer.from(''), stderr: Buffer.from('nope'), exitCode: 7 });
    const { p, events } = killWith(rt, 30, { exec: { command: ['false'] } });
    await p;
    expect(events.map((e) => [e.type, e.reason])).toEqual([
      ['Normal', 'Killing'],
      ['Warning', 'FailedPreStopHook'],
    ]);
    expect(events[1].message).toBe("command 'false' exited with 7: nope");
    expect(rt.stops[0].timeout).toBe(30);
  });

  it('item 3: a hook longer than the grace period is abandoned; the stop gets max(grace − elapsed, 2)', async () => {
    const rt = new FakeRuntime();
    const clock = new FakeClock();
    rt.execResult = () => new Promise(() => undefined);
    const { p } = killWith(rt, 5, { exec: { command: ['sleep', '100'] } }, clock);
    await clock.advance(5_000);
    await p;
    expect(rt.stops[0]).toMatchObject({ timeout: 2, timeoutMs: 7_000 });
  });

  it('item 4 (Quirk): grace 0 skips the hook and still stops with a 2 s timeout', async () => {
    const rt = new FakeRuntime();
    const { p } = killWith(rt, 0, { exec: { command: ['x'] } });
    await p;
    expect(rt.execs).toHaveLength(0);
    expect(rt.stops[0].timeout).toBe(2);
  });

  it('item 3: httpGet without a host fails ("failed to find networking container"); tcpSocket is unsupported; a named port resolves', async () => {
    for (const [hook, msg] of [
      [{ httpGet: { path: '/x', port: 80 } }, 'failed to find networking container'],
      [{ tcpSocket: { port: 80 } }, 'tcpSocket is not supported as a preStop handler'],
      [
        { httpGet: { host: '127.0.0.1', path: 'quit', port: 'http' } },
        'HTTP lifecycle hook (/quit) for Container "app" returned status 500',
      ],
    ] as const) {
      const rt = new FakeRuntime();
      const { p, events } = killWith(rt, 10, hook);
      await p;
      expect(events[1]?.message).toBe(msg);
      expect(rt.stops).toHaveLength(1);
    }
  });
});
