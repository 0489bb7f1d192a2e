// Real-runtime test of the CRR daemon (docs/reference/daemon.md §9.2–§9.5, issue 11): a running container in a
// real containerd sandbox is stopped through CRI after its preStop hook; the test then plays kubelet
// (creates attempt 1 in the same sandbox) and the CRR controller (sync-container-statuses), and the
// daemon reports Succeeded / Completed.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ANNOTATION_CRR_SYNC_CONTAINER_STATUSES,
  type ContainerRecreateRequest,
  type KubeObject,
  setDefaultsContainerRecreateRequest,
} from '@kruise-ts/api';
import type { Pod } from 'kubernetes-types/core/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithoutRealTool } from '../../../test/support/realTools';
import { createDaemon, InMemoryKube } from '../src/index';
import { CriEnv, criSkipReason, LOCAL_REPO } from './support/criEnv';
import { captureLogger, eventually } from './support/helpers';

const SUITE = 'container recreate on real containerd (§9)';
const skip = skipWithoutRealTool(SUITE, criSkipReason(['containerd', 'runc', 'ctr', 'busybox']));

const NODE = 'node-crr';
// A shell that exits 0 on SIGTERM (so a stop is quick) and ticks otherwise.
const APP_CMD = ['/bin/sh', '-c', "trap 'exit 0' TERM; while true; do sleep 1 & wait $!; done"];

describe.skipIf(skip)(SUITE, () => {
  let env: CriEnv;
  beforeAll(async () => {
    env = await CriEnv.start();
  }, 120_000);
  afterAll(async () => {
    await env?.stop();
  }, 60_000);

  it('§9.3–§9.5: stops the running container after its preStop hook, sees kubelet restart it, reports Succeeded and Completed', async () => {
    const hostData = join(env.dir, 'hostdata');
    mkdirSync(hostData, { recursive: true });
    const uid = 'pod-uid-crr-1';
    const sandbox = await env.runPod('default', 'web-0', uid);
    const app = {
      name: 'app',
      image: `${LOCAL_REPO}:v1`,
      command: APP_CMD,
      mounts: [{ containerPath: '/hostdata', hostPath: hostData }],
    };
    const id0 = await env.startContainer(sandbox, app, 0);
    const st0 = await env.cri.containerStatus(id0);
    expect(st0.state).toBe('CONTAINER_RUNNING');
    const startedMs = Number(BigInt(st0.startedAt) / 1_000_000n);

    const kube = new InMemoryKube();
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { namespace: 'default', name: 'web-0', uid },
      spec: {
        nodeName: NODE,
        terminationGracePeriodSeconds: 10,
        containers: [
          {
            name: 'app',
            image: app.image,
            lifecycle: {
              preStop: { exec: { command: ['/bin/sh', '-c', 'echo prestop-ran > /hostdata/prestop'] } },
            },
          },
        ],
      },
      status: {
        phase: 'Running',
        containerStatuses: [
          {
            name: 'app',
            image: app.image,
            imageID: '',
            containerID: `containerd://${id0}`,
            restartCount: 0,
            ready: true,
            started: true,
            state: { running: { startedAt: new Date(startedMs).toISOString() } },
          },
        ],
      },
    };
    kube.create(pod as never);
    // creationTimestamp has second precision: create the CRR in a later second than the container start,
    // or §9.3 item 4.5 ("started after the CRR was created") would see a restart that did not happen.
    const nextSecond = Math.floor(startedMs / 1000) * 1000 + 1000;
    await new Promise((r) => setTimeout(r, Math.max(0, nextSecond - Date.now() + 20)));
    const crrIn = setDefaultsContainerRecreateRequest(
      {
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'ContainerRecreateRequest',
        metadata: { namespace: 'default', name: 'crr-1' },
        spec: { podName: 'web-0', containers: [{ name: 'app' }], strategy: {} },
      },
      { pod },
    );
    expect(crrIn.spec.containers[0].statusContext).toEqual({
      containerID: `containerd://${id0}`,
      restartCount: 0,
    });
    kube.create(crrIn);

    const { logger, lines } = captureLogger();
    // §7.1: the daemon finds the runtime by probing <varRunDir>/containerd.sock (ImageFsInfo, ListImages, Version).
    const daemon = await createDaemon({ nodeName: NODE, varRunDir: join(env.dir, 'ctd'), kube, logger });
    expect(daemon.runtimes.runtimes.map((r) => [r.endpoint, r.runtimeName])).toEqual([
      [env.endpoint, 'containerd'],
    ]);
    await daemon.start();
    try {
      const getCrr = () => kube.get<ContainerRecreateRequest>('ContainerRecreateRequest', 'default', 'crr-1');
      // The daemon picks it (Recreating), runs preStop, stops the container and marks it killed.
      await eventually('the container killed', () => {
        const s = getCrr()?.status;
        return s?.phase === 'Recreating' && s.containerRecreateStates?.[0]?.isKilled === true;
      });
      expect(getCrr()?.status?.containerRecreateStates).toEqual([
        { name: 'app', phase: 'Recreating', isKilled: true },
      ]);
      const exited = await eventually('CONTAINER_EXITED', async () => {
        const s = await env.cri.containerStatus(id0);
        return s.state === 'CONTAINER_EXITED' ? s : undefined;
      });
      expect(exited.exitCode).toBe(0);
      expect(existsSync(join(hostData, 'prestop'))).toBe(true);
      expect(readFileSync(join(hostData, 'prestop'), 'utf8').trim()).toBe('prestop-ran');
      const killing = kube.events.find((e) => e.reason === 'Killing');
      expect(killing?.message).toBe('Stopping container app by ContainerRecreateRequest crr-1');
      expect(killing?.involvedObject.fieldPath).toBe('spec.containers{app}');
      expect(kube.events.some((e) => e.reason === 'FailedPreStopHook')).toBe(false);

      // Play kubelet (§11 item 3): attempt 1 in the same sandbox, restartCount annotation 1.
      const id1 = await env.startContainer(sandbox, app, 1);
      expect(id1).not.toBe(id0);
      const st1 = await env.cri.containerStatus(id1);
      kube.mutate<Pod & KubeObject>('Pod', 'default', 'web-0', (p) => ({
        ...p,
        status: {
          ...p.status,
          containerStatuses: [
            {
              name: 'app',
              image: app.image,
              imageID: '',
              containerID: `containerd://${id1}`,
              restartCount: 1,
              ready: true,
              started: true,
              state: {
                running: { startedAt: new Date(Number(BigInt(st1.startedAt) / 1_000_000n)).toISOString() },
              },
            },
          ],
        },
      }));
      // Play the CRR controller (§9.1 item 7): the running container started after the CRR.
      kube.mutate<ContainerRecreateRequest>('ContainerRecreateRequest', 'default', 'crr-1', (c) => ({
        ...c,
        metadata: {
          ...c.metadata,
          annotations: {
            ...c.metadata.annotations,
            [ANNOTATION_CRR_SYNC_CONTAINER_STATUSES]: JSON.stringify([
              { name: 'app', ready: true, restartCount: 1, containerID: `containerd://${id1}` },
            ]),
          },
        },
      }));
      const done = await eventually('the CRR completed', () => {
        const c = getCrr();
        return c?.status?.phase === 'Completed' ? c : undefined;
      });
      expect(done.status?.message).toBe('');
      expect(done.status?.completionTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(done.status?.containerRecreateStates).toEqual([
        { name: 'app', phase: 'Succeeded', isKilled: true },
      ]);
      // The new container keeps running: the daemon never stops it again.
      expect((await env.cri.containerStatus(id1)).state).toBe('CONTAINER_RUNNING');
      expect(lines.some((l) => l.includes('"msg":"stopped container"'))).toBe(true);
    } finally {
      await daemon.stop();
    }
  });
});
