// What each test file of the real-cluster suite shares: the control plane from globalSetup
// (`inject('realCluster')`), an operator started with the kruise-manager ServiceAccount's token
// (deploy/rbac.yaml's permissions, nothing more), the pod driver playing scheduler and kubelet, and
// one fresh namespace per test so tests never see each other's objects.
import type { KubeObject } from '@kruise-ts/api';
import { afterEach, inject } from 'vitest';
import { skipWithoutRealTool } from '../../../../test/support/realTools';
import type { OperatorOptions, RunningOperator } from '../../src/index';
import { startOperator } from '../../test/helpers/cluster';
import { rememberServer } from '../../test/helpers/serverAccess';
import type { RealCluster } from '../globalSetup';
import { type DriverNode, type PodDriver, registerNodes, startPodDriver } from './podDriver';
import { api } from './rest';

/** The control plane, or undefined when this machine cannot run it (the suite then skips, or fails under CI=true). */
export function realCluster(suite: string): RealCluster | undefined {
  const rc = inject('realCluster');
  if (skipWithoutRealTool(suite, rc.missing)) return undefined;
  rememberServer(rc.url, { token: rc.token, caCert: rc.caCert });
  return rc;
}

let namespaceSeq = 0;

/** Per-test resources, stopped after each test. */
export interface RealTest {
  /** A new namespace for this test. */
  namespace(prefix?: string): Promise<string>;
  /** An operator with the kruise-manager ServiceAccount's credentials. */
  operator(identity?: string, extra?: Partial<OperatorOptions>): Promise<RunningOperator>;
  stopOperator(op: RunningOperator): Promise<void>;
  /** Starts the pod driver (once per test) after registering `nodes`. */
  driver(nodes?: readonly DriverNode[]): Promise<PodDriver>;
}

/** Call once at the top of a test file, inside the guard of `realCluster`. */
export function useRealTest(rc: RealCluster): RealTest {
  const ops: RunningOperator[] = [];
  let driver: PodDriver | undefined;
  afterEach(async () => {
    for (const op of ops.splice(0)) await op.stop();
    const d = driver;
    driver = undefined;
    if (d) {
      await d.stop();
      if (d.errors.length > 0)
        throw new Error(`pod driver saw unexpected answers: ${d.errors.slice(0, 5).join('; ')}`);
    }
  });
  return {
    async namespace(prefix = 't') {
      const name = `${prefix}-${process.pid}-${namespaceSeq++}`;
      const r = await api(rc.url, 'POST', '/api/v1/namespaces', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name },
      });
      if (r.status !== 201) throw new Error(`namespace ${name}: ${r.status} ${JSON.stringify(r.body)}`);
      return name;
    },
    async operator(identity = 'replica-a', extra = {}) {
      const op = await startOperator(rc.operatorKubeconfig, identity, extra);
      ops.push(op);
      return op;
    },
    async stopOperator(op) {
      const i = ops.indexOf(op);
      if (i >= 0) ops.splice(i, 1);
      await op.stop();
    },
    async driver(nodes = DEFAULT_NODES) {
      await registerNodes(rc.url, nodes);
      driver ??= startPodDriver(rc.url);
      return driver;
    },
  };
}

/** Three nodes, one per zone. */
export const DEFAULT_NODES: readonly DriverNode[] = ['a', 'b', 'c'].map((z, i) => ({
  name: `node-${i + 1}`,
  labels: { 'topology.kubernetes.io/zone': `zone-${z}` },
}));

/** The pods of `namespace` with label app=`app`, not being deleted. */
export async function podsOf(base: string, namespace: string, app: string): Promise<any[]> {
  const r = await api(base, 'GET', `/api/v1/namespaces/${namespace}/pods?labelSelector=app%3D${app}`);
  return (r.body?.items ?? []).filter((p: KubeObject) => !p.metadata?.deletionTimestamp);
}

export const isReady = (p: any): boolean =>
  p.status?.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True') ?? false;
