// runOperator: the shell's assembly. Informers for every kind the enabled controllers and the
// webhooks read; per-controller runners (queue, expectations, executor); the cert/config sync
// loop and the HTTPS webhook server (every replica, W2.15/O3.1); leader election gating only the
// controllers; metrics and health servers; graceful shutdown (release the Lease, drain workers).
// The sync (W2.15) runs certs → webhook configurations (W2.13) → conversion CRDs (W2.14), every
// resyncMs and whenever an apps.kruise.io CRD is added or updated.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createStructureCache, type KubeObject } from '@kruise-ts/api';
import { applyFeatureGateDependencies, resolveFeatureGates } from '@kruise-ts/core';
import { InformerCache } from './cache';
import { NAMESPACE, POD, PVC, REVISION, resolveControllers, selectControllers } from './controllers/index';
import { type SmallServer, startHealthServer, startMetricsServer } from './health';
import { HttpKubeClient, type KubeClient, loadKubeConfig } from './kube/client';
import { collectionPath, resourceFor } from './kube/resources';
import { LeaderElector } from './leader';
import { createLogger, type Logger } from './log';
import { OperatorMetrics } from './metrics';
import { defaultOperatorOptions, type OperatorOptions, parseAddr } from './options';
import { ControllerRunner } from './runner';
import { ensureCerts, parseRenewBefore, webhookDnsName } from './webhook/certs';
import { syncWebhookConfigurations } from './webhook/configurations';
import { syncConversionCrds } from './webhook/conversion';
import { activePaths, type HandlerContext } from './webhook/handlers';
import { startWebhookServer, type WebhookServer } from './webhook/server';

/** A running operator. */
export interface RunningOperator {
  options: OperatorOptions;
  log: Logger;
  metrics: OperatorMetrics;
  cache: InformerCache;
  runners: ControllerRunner[];
  /** Ports actually bound (0 in the options picks a free one). */
  ports: { webhook?: number; metrics?: number; health?: number };
  /** The CA (PEM) the webhook configurations carry. */
  caBundle?: string;
  isLeader(): boolean;
  /** Graceful shutdown: stop campaigning (releasing the Lease), drain workers, close servers. */
  stop(): Promise<void>;
}

const SIDECARSET = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet' };
const CRD = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' };

async function ensureNamespace(client: KubeClient, name: string): Promise<void> {
  const res = resourceFor('v1', 'Namespace');
  await client.request('POST', collectionPath(res), {
    body: {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name, labels: { 'control-plane': 'openkruise' } },
    },
  });
}

/**
 * Starts the operator. Resolves once caches are synced, the webhook server is serving with a
 * valid certificate and the configurations carry its caBundle (W2.17 steps 5–6).
 *
 * Example: `await runOperator({ kubeconfig: '/tmp/kruise-ts/kubeconfig', metricsAddr: ':0',
 * healthProbeAddr: ':0', webhook: { ...defaults.webhook, host: '127.0.0.1', port: 0, install: true } })`.
 */
export async function runOperator(partial: Partial<OperatorOptions> = {}): Promise<RunningOperator> {
  const d = defaultOperatorOptions();
  const o: OperatorOptions = {
    ...d,
    ...partial,
    leaderElection: { ...d.leaderElection, ...partial.leaderElection },
    webhook: { ...d.webhook, ...partial.webhook },
    rateLimiter: { ...d.rateLimiter, ...partial.rateLimiter },
  };
  const log = createLogger(o.logLevel, o.leaderElection.identity);
  const metrics = new OperatorMetrics();
  const gates = applyFeatureGateDependencies(resolveFeatureGates(o.featureGates));
  const observer = (method: string, _path: string, status: number) =>
    metrics.apiRequests.inc({ method, code: String(status) });
  const client: KubeClient = o.client ?? new HttpKubeClient(loadKubeConfig(o.kubeconfig), observer);

  // D1.12: the protection log (a failure to open it disables the file with a warning; kruise exits)
  let protectionLog: string | undefined;
  if (o.protectionLogPath) {
    try {
      mkdirSync(o.protectionLogPath, { recursive: true });
      protectionLog = join(o.protectionLogPath, 'protection.log');
      appendFileSync(protectionLog, '');
    } catch (err) {
      log.warn(
        { err: (err as Error).message, path: o.protectionLogPath },
        'protection log unavailable; not writing it',
      );
      protectionLog = undefined;
    }
  }

  const cache = new InformerCache(client, {
    namespace: o.namespace,
    backoffMs: o.watchBackoffMs,
    onError: (msg, err) => log.warn({ err: err instanceof Error ? err.message : err }, msg),
  });
  const env = {
    featureGates: gates,
    seed: o.seed,
    kruiseNamespace: o.kruiseNamespace,
    scalingExcludePreparingDelete: false,
    nodeImageCreationDelaySeconds: o.nodeImageCreationDelaySeconds,
    daemonConfigNamespace: o.daemonConfigNamespace,
  };
  // §3.5: gates, then discovery (a controller whose kind is not served registers nothing)
  const controllers = await resolveControllers(client, selectControllers(o.controllers, gates), log);
  const runners = controllers.map(
    (c) =>
      new ControllerRunner(c, cache, client, log.child({ controller: c.name }), metrics, {
        workers: o.workers,
        env,
        rateLimiter: o.rateLimiter,
        expectationTimeoutSeconds: o.expectationTimeoutSeconds,
        events: o.events,
        concurrency: o.writeConcurrency,
      }),
  );
  for (const r of runners) r.wire();
  if (o.webhook.enabled) for (const ref of [POD, PVC, NAMESPACE, REVISION, SIDECARSET]) cache.informer(ref);
  // W2.15: add/update of an apps.kruise.io CRD triggers the cert/config sync (set below)
  let kickSync: (() => void) | undefined;
  if (o.webhook.enabled) {
    const onCrd = (crd: KubeObject) => {
      if ((crd.spec as { group?: string } | undefined)?.group === 'apps.kruise.io') kickSync?.();
    };
    cache.informer(CRD).on({ add: onCrd, update: (_old, crd) => onCrd(crd) });
  }

  if (o.webhook.install) {
    await ensureNamespace(client, o.kruiseNamespace).catch(() => undefined);
    if (o.leaderElection.namespace !== o.kruiseNamespace)
      await ensureNamespace(client, o.leaderElection.namespace).catch(() => undefined);
  }

  cache.start();
  await cache.waitForSync();
  log.info({ informers: cache.all().map((i) => i.resource.plural) }, 'caches synced');

  // webhooks: certs → server → configurations (W2.15–W2.17), then a periodic resync on every replica
  let webhookServer: WebhookServer | undefined;
  let caBundle: string | undefined;
  let initialised = !o.webhook.enabled;
  let syncTimer: NodeJS.Timeout | undefined;
  let syncStopped = false;
  const active = activePaths(gates);
  const handlerCtx: HandlerContext = {
    cache,
    structureCache: createStructureCache(),
    featureGates: gates,
    kruiseNamespace: o.kruiseNamespace,
    now: () => new Date(),
    listCRs: async (group, version, listKind) => {
      const kind = listKind.replace(/List$/, '');
      const res = await client.request('GET', collectionPath(resourceFor(`${group}/${version}`, kind)));
      if (res.status !== 200) throw new Error(`${res.status} ${res.body?.message ?? ''}`);
      return (res.body?.items ?? []) as KubeObject[];
    },
    onProtectionDenied: (kind, obj, username) => {
      const name = obj.metadata.name ?? '';
      const ns = obj.metadata.namespace ?? '';
      if (kind === 'Namespace') metrics.namespaceProtection.inc({ name, username });
      else if (kind === 'CustomResourceDefinition') metrics.crdProtection.inc({ name, username });
      else metrics.workloadProtection.inc({ kind_namespace_name: `${kind}_${ns}_${name}`, username });
      if (protectionLog) {
        const line = {
          Event: 'DeletionProtection',
          Kind: kind,
          Namespace: ns,
          Name: name,
          UserAgent: username,
        };
        try {
          appendFileSync(protectionLog, `${JSON.stringify(line)}\n`);
        } catch {
          // logging a denial never changes it
        }
      }
    },
  };
  if (o.webhook.enabled) {
    const dnsName = webhookDnsName({
      host: o.webhook.host,
      serviceName: o.webhook.serviceName,
      namespace: o.kruiseNamespace,
    });
    const certOpts = {
      namespace: o.kruiseNamespace,
      secretName: o.webhook.secretName,
      dnsName,
      renewBeforeMs: parseRenewBefore(o.webhook.renewBefore),
    };
    const certs = await ensureCerts(client, certOpts);
    caBundle = certs.caCert;
    webhookServer = await startWebhookServer(
      { host: o.webhook.bind, port: o.webhook.port, cert: certs.cert, key: certs.key, active },
      handlerCtx,
      (path, allowed) => metrics.webhookRequests.inc({ path, allowed: String(allowed) }),
    );
    const render = {
      namespace: o.kruiseNamespace,
      serviceName: o.webhook.serviceName,
      host: o.webhook.host,
      port: webhookServer.port,
      podFailurePolicy: o.webhook.podFailurePolicy,
      protectionFailurePolicy: o.webhook.protectionFailurePolicy,
      install: o.webhook.install,
    };
    const sync = async () => {
      const c = await ensureCerts(client, certOpts);
      if (c.cert !== certs.cert) {
        webhookServer?.setCertificate(c.cert, c.key);
        Object.assign(certs, c);
      }
      caBundle = c.caCert;
      await syncWebhookConfigurations(client, c.caCert, active, render);
      const crds = await syncConversionCrds(client, c.caCert, render);
      if (crds.length > 0) log.info({ crds }, 'conversion webhook set on CRDs (W2.14)');
    };
    const deadline = Date.now() + 20_000;
    for (;;) {
      try {
        await sync();
        initialised = true;
        break;
      } catch (err) {
        if (Date.now() > deadline) {
          await webhookServer.close();
          cache.stop();
          throw new Error(
            `failed to start webhook controller for waiting more than 20s: ${(err as Error).message}`,
          );
        }
        log.warn({ err: (err as Error).message }, 'webhook sync failed; retrying');
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    // one sync at a time; a kick during a sync runs another right after it
    let running = false;
    let again = false;
    const runNow = () => {
      if (syncStopped) return;
      if (syncTimer) clearTimeout(syncTimer);
      if (running) {
        again = true;
        return;
      }
      running = true;
      sync()
        .catch((err: Error) => log.warn({ err: err.message }, 'webhook sync failed'))
        .finally(() => {
          running = false;
          if (again) {
            again = false;
            runNow();
          } else loop();
        });
    };
    const loop = () => {
      if (syncStopped) return;
      syncTimer = setTimeout(runNow, o.webhook.resyncMs);
      syncTimer.unref?.();
    };
    kickSync = runNow;
    loop();
    log.info({ port: webhookServer.port, paths: active.size, dnsName }, 'webhook server ready');
  }

  // metrics + probes
  let metricsServer: SmallServer | undefined;
  let healthServer: SmallServer | undefined;
  if (o.metricsAddr) {
    const a = parseAddr(o.metricsAddr);
    metricsServer = await startMetricsServer(metrics.registry, a.host, a.port);
  }
  if (o.healthProbeAddr) {
    const a = parseAddr(o.healthProbeAddr);
    healthServer = await startHealthServer(
      {
        'webhook-ready': async () => (initialised ? undefined : 'webhook controller has not initialized'),
        'informers-synced': async () =>
          cache.all().every((i) => i.hasSynced()) ? undefined : 'caches not synced',
      },
      a.host,
      a.port,
    );
  }

  // leader election gates only the controllers (O3.1)
  let leading = false;
  const startControllers = () => {
    leading = true;
    metrics.isLeader.set(1);
    for (const r of runners) r.start();
  };
  const stopControllers = async () => {
    leading = false;
    metrics.isLeader.set(0);
    await Promise.all(runners.map((r) => r.stop()));
  };
  let elector: LeaderElector | undefined;
  if (o.leaderElection.enabled) {
    elector = new LeaderElector(
      client,
      {
        namespace: o.leaderElection.namespace,
        name: o.leaderElection.id,
        identity: o.leaderElection.identity,
        leaseDurationMs: o.leaderElection.leaseDurationMs,
        renewDeadlineMs: o.leaderElection.renewDeadlineMs,
        retryPeriodMs: o.leaderElection.retryPeriodMs,
      },
      {
        onStartedLeading: startControllers,
        onStoppedLeading: () => {
          void stopControllers().then(() => {
            if (o.onLeadershipLost === 'exit' && !stopping) {
              log.error('leader election lost; exiting (O3.2)');
              process.exit(1);
            }
          });
        },
      },
      log,
    );
    elector.start();
  } else startControllers();

  let stopping = false;
  return {
    options: o,
    log,
    metrics,
    cache,
    runners,
    get caBundle() {
      return caBundle;
    },
    ports: { webhook: webhookServer?.port, metrics: metricsServer?.port, health: healthServer?.port },
    isLeader: () => leading,
    stop: async () => {
      stopping = true;
      syncStopped = true;
      if (syncTimer) clearTimeout(syncTimer);
      if (elector) await elector.stop(true);
      await stopControllers();
      cache.stop();
      await Promise.all([webhookServer?.close(), metricsServer?.close(), healthServer?.close()]);
      if (client instanceof HttpKubeClient) client.close();
      log.info('operator stopped');
    },
  };
}

/** SIGTERM/SIGINT → graceful stop, then exit (the CLI installs this). */
export function installSignalHandlers(op: RunningOperator): void {
  const handler = (sig: string) => {
    op.log.info({ signal: sig }, 'shutting down');
    op.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', () => handler('SIGTERM'));
  process.once('SIGINT', () => handler('SIGINT'));
}
