// Kill = preStop hook + CRI StopContainer (docs/reference/daemon.md §9.4): the Killing event, the hook run in the
// background for at most the grace period (exec via ExecSync, httpGet with an explicit host, tcpSocket
// unsupported), FailedPreStopHook on a hook error, then StopContainer with max(grace left, 2).
import type { ContainerRecreateRequestContainer } from '@kruise-ts/api';
import type { ObjectReference } from 'kubernetes-types/core/v1.js';
import type { Clock } from '../clock';
import type { CriRuntimeService } from '../cri/types';
import type { EventRecord } from '../kube/adapter';
import type { Logger } from '../log';
import { stopRpcDeadlineMs, stopTimeoutSeconds } from './pick';
import type { RuntimeContainerStatus } from './podStatus';

/** What a kill needs. */
export interface KillInput {
  runtime: CriRuntimeService;
  container: RuntimeContainerStatus;
  spec: ContainerRecreateRequestContainer;
  /** §9.3 item 2 / §9.4 item 1: the grace period in seconds. */
  graceSeconds: number;
  /** The event message (`Stopping container <X> by ContainerRecreateRequest <crr>`). */
  message: string;
  /** The pod, for the container reference of events. */
  pod: { namespace: string; name: string; uid: string };
  clock: Clock;
  logger: Logger;
  recordEvent: (ev: EventRecord) => void;
  /** HTTP GET used by httpGet hooks (default: global fetch). */
  httpGet?: (url: string, headers: Record<string, string>) => Promise<number>;
}

/** The container reference kubelet uses for events. */
export function containerRef(
  pod: { namespace: string; name: string; uid: string },
  name: string,
): ObjectReference {
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    namespace: pod.namespace,
    name: pod.name,
    uid: pod.uid,
    fieldPath: `spec.containers{${name}}`,
  };
}

async function defaultHttpGet(url: string, headers: Record<string, string>): Promise<number> {
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  return res.status;
}

/** Runs the preStop hook; rejects with the hook error. */
export async function runPreStopHook(input: KillInput): Promise<void> {
  const hook = input.spec.preStop;
  if (!hook) return;
  if (hook.exec) {
    const cmd = hook.exec.command ?? [];
    const res = await input.runtime.execSync(input.container.runtimeId, cmd, 0, { timeoutMs: 0 });
    if (res.exitCode !== 0) {
      throw new Error(
        `command '${cmd.join(' ')}' exited with ${res.exitCode}: ${Buffer.from(res.stderr ?? []).toString('utf8')}`,
      );
    }
    return;
  }
  if (hook.httpGet) {
    const h = hook.httpGet;
    // §9.4 item 3: the daemon's pod status has no IPs; without an explicit host the hook fails.
    if (!h.host) throw new Error('failed to find networking container');
    let port: number | undefined;
    if (typeof h.port === 'number') port = h.port;
    else if (/^\d+$/.test(h.port)) port = Number(h.port);
    else port = input.spec.ports?.find((p) => p.name === h.port)?.containerPort;
    if (port === undefined) throw new Error(`couldn't find port: ${String(h.port)}`);
    const path = (h.path ?? '').replace(/^\/?/, '/');
    const headers: Record<string, string> = {};
    for (const hh of h.httpHeaders ?? []) headers[hh.name] = hh.value;
    const code = await (input.httpGet ?? defaultHttpGet)(
      `${(h.scheme ?? 'HTTP').toLowerCase()}://${h.host}:${port}${path}`,
      headers,
    );
    if (code < 200 || code >= 400)
      throw new Error(
        `HTTP lifecycle hook (${path}) for Container "${input.spec.name}" returned status ${code}`,
      );
    return;
  }
  if (hook.tcpSocket) throw new Error('tcpSocket is not supported as a preStop handler');
  throw new Error('unknown preStop handler');
}

/**
 * §9.4: Killing event; preStop (if any and grace > 0) for at most `grace` s, its error reported as a
 * FailedPreStopHook warning only; then StopContainer with `max(grace − elapsed, 2)` s and an RPC
 * deadline of 5 s more. Rejects with the StopContainer error.
 */
export async function killContainer(input: KillInput): Promise<void> {
  const { clock, logger } = input;
  const ref = containerRef(input.pod, input.spec.name);
  input.recordEvent({ involvedObject: ref, type: 'Normal', reason: 'Killing', message: input.message });
  let hookElapsedMs: number | undefined;
  if (input.spec.preStop && input.graceSeconds > 0) {
    const start = clock.now();
    const timeout = new AbortController();
    const hook = runPreStopHook(input).then(
      () => undefined,
      (e: Error) => e,
    );
    const raced = await Promise.race([
      hook,
      clock.sleep(input.graceSeconds * 1000, timeout.signal).then(() => 'timeout' as const),
    ]);
    timeout.abort();
    hookElapsedMs = clock.now() - start;
    if (raced === 'timeout') {
      logger.info(
        { container: input.spec.name, grace: input.graceSeconds },
        'preStop hook not completed in grace period',
      );
    } else if (raced) {
      const err = raced;
      logger.warn({ container: input.spec.name, err: err.message }, 'preStop hook failed');
      input.recordEvent({
        involvedObject: ref,
        type: 'Warning',
        reason: 'FailedPreStopHook',
        message: err.message,
      });
    }
  }
  const timeoutSeconds = stopTimeoutSeconds(input.graceSeconds, hookElapsedMs);
  await input.runtime.stopContainer(input.container.runtimeId, timeoutSeconds, {
    timeoutMs: stopRpcDeadlineMs(timeoutSeconds),
  });
}
