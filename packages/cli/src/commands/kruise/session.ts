// How the kubectl-kruise commands reach a cluster: the kubeconfig chain kubectl uses
// (--kubeconfig, else $KUBECONFIG, else ~/.kube/config, else in-cluster), --context and
// -n/--namespace, through @kubernetes/client-node's KubeConfig and the operator's HTTP transport;
// and how failures read, in kubectl's wording (`Error from server (NotFound): ...`, `The connection
// to the server ... was refused ...`), each with exit code 1.
import { HttpKubeClient, type KubeResponse } from '@kruise-ts/operator';
import { KubeConfig } from '@kubernetes/client-node';
import type { CliIO } from '../../io';
import { pluralResource, type WorkloadKind, type WorkloadRef } from './workloads';

/** The connection flags every command takes. */
export interface ConnectionOptions {
  kubeconfig?: string;
  context?: string;
  namespace?: string;
}

/** A failure printed as it is (kubectl's wording, no `error:` added) with exit code 1. */
export class KubeFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KubeFailure';
  }
}

/** An open connection: the client, the namespace commands act in, and the server's address. */
export interface Session {
  client: HttpKubeClient;
  namespace: string;
  server: URL;
}

/**
 * Loads the kubeconfig and opens a client. A missing or unreadable file, or an unknown context, is
 * a `KubeFailure` (`error: context "x" does not exist`).
 */
export function openSession(opts: ConnectionOptions): Session {
  const kc = new KubeConfig();
  try {
    if (opts.kubeconfig) kc.loadFromFile(opts.kubeconfig);
    else if (!process.env.KUBECONFIG && process.env.KUBERNETES_SERVICE_HOST) kc.loadFromCluster();
    else kc.loadFromDefault();
  } catch (e) {
    throw new KubeFailure(`error: cannot load the kubeconfig: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (opts.context !== undefined) {
    if (!kc.getContextObject(opts.context))
      throw new KubeFailure(`error: context "${opts.context}" does not exist`);
    kc.setCurrentContext(opts.context);
  }
  const cluster = kc.getCurrentCluster();
  if (!cluster)
    throw new KubeFailure(
      'error: the kubeconfig names no current cluster (set current-context, or give --context or --kubeconfig)',
    );
  const namespace = opts.namespace || kc.getContextObject(kc.getCurrentContext())?.namespace || 'default';
  return {
    client: new HttpKubeClient(kc, undefined, 'kruise-ts'),
    namespace,
    server: new URL(cluster.server),
  };
}

/** The API path of a workload (`name` given) or of its collection in `namespace`. */
export function workloadPath(kind: WorkloadKind, namespace: string, name?: string): string {
  const base = `/apis/${kind.group}/${kind.version}`;
  const scoped = kind.namespaced ? `${base}/namespaces/${encodeURIComponent(namespace)}` : base;
  return `${scoped}/${kind.plural}${name === undefined ? '' : `/${encodeURIComponent(name)}`}`;
}

/** Throws a KubeFailure in kubectl's wording unless the response is 2xx; returns the body. */
export function expectOk(res: KubeResponse): any {
  if (res.status >= 200 && res.status < 300) return res.body;
  const reason = typeof res.body?.reason === 'string' && res.body.reason ? res.body.reason : `${res.status}`;
  const message =
    typeof res.body?.message === 'string' ? res.body.message : `the server answered ${res.status}`;
  throw new KubeFailure(`Error from server (${reason}): ${message}`);
}

/** Reads the workload; a missing one is kubectl's NotFound line. */
export async function getWorkload(session: Session, ref: WorkloadRef): Promise<any> {
  const res = await session.client.request('GET', workloadPath(ref.kind, session.namespace, ref.name));
  // A 404 that names no object means the resource type itself is not served (Kruise's CRDs are
  // not installed), which kubectl words differently from a missing object.
  if (res.status === 404 && res.body?.details?.name !== ref.name)
    throw new KubeFailure(`error: the server doesn't have a resource type "${pluralResource(ref.kind)}"`);
  return expectOk(res);
}

/** Sends a JSON patch (RFC 6902) to the workload and returns the patched object. */
export async function jsonPatch(session: Session, ref: WorkloadRef, ops: unknown[]): Promise<any> {
  return expectOk(
    await session.client.request('PATCH', workloadPath(ref.kind, session.namespace, ref.name), {
      body: ops,
      contentType: 'application/json-patch+json',
    }),
  );
}

/** Sends a JSON merge patch (RFC 7386) to the workload and returns the patched object. */
export async function mergePatch(session: Session, ref: WorkloadRef, patch: unknown): Promise<any> {
  return expectOk(
    await session.client.request('PATCH', workloadPath(ref.kind, session.namespace, ref.name), {
      body: patch,
      contentType: 'application/merge-patch+json',
    }),
  );
}

function connectionFailure(e: unknown, server: URL | undefined): string | undefined {
  const code = (e as { code?: unknown })?.code;
  const where = server ? server.host : 'the server';
  if (code === 'ECONNREFUSED')
    return `The connection to the server ${where} was refused - did you specify the right host or port?`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `Unable to connect to the server: dial tcp: lookup ${server?.hostname ?? ''}: no such host`;
  if (
    typeof code === 'string' &&
    (code.startsWith('ERR_TLS') || code.includes('CERT') || code === 'DEPTH_ZERO_SELF_SIGNED_CERT')
  )
    return `Unable to connect to the server: tls: ${(e as Error).message}`;
  return undefined;
}

/**
 * Runs a command against the cluster: opens the session, runs `body`, closes the client. A
 * KubeFailure or a connection failure is printed on stderr as kubectl prints it, exit code 1.
 */
export async function withSession(
  opts: ConnectionOptions,
  io: CliIO,
  body: (session: Session) => Promise<number>,
): Promise<number> {
  let session: Session | undefined;
  try {
    session = openSession(opts);
    return await body(session);
  } catch (e) {
    if (e instanceof KubeFailure) {
      io.stderr(`${e.message}\n`);
      return 1;
    }
    const connection = connectionFailure(e, session?.server);
    if (connection) {
      io.stderr(`${connection}\n`);
      return 1;
    }
    throw e;
  } finally {
    session?.client.close();
  }
}
