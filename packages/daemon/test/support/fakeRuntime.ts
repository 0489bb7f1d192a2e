// A fake CRI runtime service for unit tests: containers with kubelet labels, stop/exec recording.
import type {
  CriContainer,
  CriContainerStatus,
  CriExecSyncResponse,
  CriRuntimeService,
} from '../../src/index';
import { CriError } from '../../src/index';

/** A fake container. */
export interface FakeContainer {
  id: string;
  podUid: string;
  name: string;
  attempt: number;
  state: CriContainerStatus['state'];
  createdAtMs: number;
  startedAtMs: number;
}

/** The fake runtime. */
export class FakeRuntime implements CriRuntimeService {
  readonly containers: FakeContainer[] = [];
  readonly stops: { id: string; timeout: number; timeoutMs?: number }[] = [];
  readonly execs: { id: string; cmd: string[] }[] = [];
  execResult: (cmd: string[]) => Promise<CriExecSyncResponse> = async () => ({
    stdout: Buffer.from(''),
    stderr: Buffer.from(''),
    exitCode: 0,
  });
  stopError?: CriError;
  private seq = 0;

  add(podUid: string, name: string, attempt: number, nowMs: number): FakeContainer {
    const c: FakeContainer = {
      id: `c${++this.seq}`,
      podUid,
      name,
      attempt,
      state: 'CONTAINER_RUNNING',
      createdAtMs: nowMs + this.seq,
      startedAtMs: nowMs,
    };
    this.containers.push(c);
    return c;
  }

  async version() {
    return { version: '0.1.0', runtimeName: 'containerd', runtimeVersion: 'fake', runtimeApiVersion: 'v1' };
  }
  async listContainers(filter: { labelSelector?: Record<string, string> }): Promise<CriContainer[]> {
    const uid = filter.labelSelector?.['io.kubernetes.pod.uid'];
    return this.containers
      .filter((c) => uid === undefined || c.podUid === uid)
      .map((c) => ({
        id: c.id,
        podSandboxId: 's',
        state: c.state,
        createdAt: String(BigInt(c.createdAtMs) * 1_000_000n),
        labels: {},
        annotations: {},
      }));
  }
  async containerStatus(id: string): Promise<CriContainerStatus> {
    const c = this.containers.find((x) => x.id === id);
    if (!c) throw new CriError(5, `an error occurred when try to find container "${id}": not found`);
    return {
      id: c.id,
      metadata: { name: c.name, attempt: c.attempt },
      state: c.state,
      createdAt: String(BigInt(c.createdAtMs) * 1_000_000n),
      startedAt: String(BigInt(c.startedAtMs) * 1_000_000n),
      finishedAt: '0',
      exitCode: 0,
      reason: '',
      message: '',
      labels: { 'io.kubernetes.pod.uid': c.podUid, 'io.kubernetes.container.name': c.name },
      annotations: { 'io.kubernetes.container.restartCount': String(c.attempt) },
    };
  }
  async execSync(id: string, cmd: string[]): Promise<CriExecSyncResponse> {
    this.execs.push({ id, cmd });
    return this.execResult(cmd);
  }
  async stopContainer(id: string, timeout: number, opts?: { timeoutMs?: number }): Promise<void> {
    this.stops.push({ id, timeout, timeoutMs: opts?.timeoutMs });
    if (this.stopError) throw this.stopError;
    const c = this.containers.find((x) => x.id === id);
    if (c) c.state = 'CONTAINER_EXITED';
  }
}
