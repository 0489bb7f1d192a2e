// The operator's settings: the flags of docs/reference/operator.md §3.3 (subset) and the env of §0/§2.7,
// parsed from a `kruise-ts operator ...` command line. Every port is configurable (two replicas
// run on one machine in the tests); port 0 picks a free one.
import { type FeatureGates, parseFeatureGatesFlag } from '@kruise-ts/core';
import type { KubeClient } from './kube/client';
import type { RateLimiterOptions } from './queue';

/** Everything `runOperator` accepts. */
export interface OperatorOptions {
  /** kubeconfig file; absent → in-cluster config in a pod, else the default chain. */
  kubeconfig?: string;
  /** A ready transport (tests); overrides kubeconfig. */
  client?: KubeClient;
  /** Restrict informers to one namespace (`--namespace`, O3.9). */
  namespace?: string;
  /** The kruise namespace (env POD_NAMESPACE, default kruise-system). */
  kruiseNamespace: string;
  featureGates: Partial<FeatureGates>;
  /** Controllers to run: short names (`cloneset`, `statefulset`, ...) or 'all'. */
  controllers: string[] | 'all';
  /** Workers per controller (§3.5 default 3). */
  workers: number;
  leaderElection: {
    enabled: boolean;
    namespace: string;
    id: string;
    identity: string;
    leaseDurationMs: number;
    renewDeadlineMs: number;
    retryPeriodMs: number;
  };
  /** `host:port` of /metrics; empty string disables. */
  metricsAddr: string;
  /** `host:port` of /healthz and /readyz; empty string disables. */
  healthProbeAddr: string;
  webhook: {
    enabled: boolean;
    /** Bind address (W2.5: 0.0.0.0). */
    bind: string;
    /** WEBHOOK_PORT (9876). */
    port: number;
    /** WEBHOOK_HOST: certificate name and `url` clientConfig instead of the Service. */
    host?: string;
    serviceName: string;
    secretName: string;
    renewBefore?: string;
    /** Create the webhook configurations when missing (the embedded cluster; a real install ships them). */
    install: boolean;
    /** Failure policy of the pod webhook (Fail blocks pod creation cluster-wide while the operator is down). */
    podFailurePolicy: 'Fail' | 'Ignore';
    /** Failure policy of the deletion-protection entries (chart: Ignore). */
    protectionFailurePolicy: 'Fail' | 'Ignore';
    /** Resync period of the cert/config loop, ms (W2.15: 60 s). */
    resyncMs: number;
  };
  expectationTimeoutSeconds: number;
  rateLimiter: RateLimiterOptions;
  /** `--protection-log-path` directory (D1.12); empty disables the file. */
  protectionLogPath: string;
  logLevel: string;
  /** Write Kubernetes events for actions' `event` verbs. */
  events: boolean;
  /** Concurrent independent pod writes per reconcile. */
  writeConcurrency: number;
  /** O3.2: exit the process when leadership is lost ('exit'), or stop controllers and campaign again. */
  onLeadershipLost: 'exit' | 'standby';
  /** Seed of the reconciles' name generators (`options.seed`). */
  seed: number;
  /** Informer watch restart back-off, ms. */
  watchBackoffMs: number;
  /** `--nodeimage-creation-delay`: a node must be Ready this long before its NodeImage is created (§3.3, 30 s). */
  nodeImageCreationDelaySeconds: number;
  /** Namespace of the ImagePullJob pull-secret copies (env `KRUISE_DAEMON_CONFIG_NS`, §0). */
  daemonConfigNamespace: string;
}

/** Defaults (docs/reference/operator.md §3.3, §0). */
export function defaultOperatorOptions(env: NodeJS.ProcessEnv = process.env): OperatorOptions {
  const ns = env.POD_NAMESPACE || 'kruise-system';
  const port = env.WEBHOOK_PORT ? Number(env.WEBHOOK_PORT) : 9876;
  return {
    kruiseNamespace: ns,
    featureGates: {},
    controllers: 'all',
    workers: 3,
    leaderElection: {
      enabled: true,
      namespace: 'kruise-system',
      id: 'kruise-manager',
      identity: env.POD_NAME || `${env.HOSTNAME || 'kruise-ts'}_${process.pid}`,
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
    },
    metricsAddr: ':8080',
    healthProbeAddr: ':8000',
    webhook: {
      enabled: true,
      bind: '0.0.0.0',
      port,
      host: env.WEBHOOK_HOST || undefined,
      serviceName: env.SERVICE_NAME || 'kruise-webhook-service',
      secretName: env.SECRET_NAME || 'kruise-webhook-certs',
      renewBefore: env.CERTS_RENEW_BEFORE,
      install: false,
      podFailurePolicy: 'Fail',
      protectionFailurePolicy: 'Ignore',
      resyncMs: 60_000,
    },
    expectationTimeoutSeconds: 300,
    rateLimiter: { baseDelayMs: 5, maxDelayMs: 1_000_000, qps: 10, burst: 100 },
    protectionLogPath: '/log',
    logLevel: 'info',
    events: true,
    writeConcurrency: 16,
    onLeadershipLost: 'exit',
    seed: 1,
    watchBackoffMs: 200,
    nodeImageCreationDelaySeconds: 30,
    daemonConfigNamespace: env.KRUISE_DAEMON_CONFIG_NS || 'kruise-daemon-config',
  };
}

/** Parses a Go duration subset (`15s`, `2m`, `500ms`, `1h`) to ms; undefined when malformed. */
export function parseDuration(s: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(s.trim());
  if (!m) return undefined;
  return Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 'ms' | 's' | 'm' | 'h'];
}

/** `host:port` → { host, port }; `:8080` binds all interfaces. */
export function parseAddr(addr: string): { host: string; port: number } {
  const i = addr.lastIndexOf(':');
  return { host: i > 0 ? addr.slice(0, i) : '0.0.0.0', port: Number(addr.slice(i + 1)) };
}

/**
 * `kruise-ts operator` flags → options, or an error message. Example:
 * `--kubeconfig /tmp/kc --metrics-addr :0 --feature-gates ResourcesDeletionProtection=true`.
 */
export function parseOperatorArgs(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): OperatorOptions | { error: string } {
  const o = defaultOperatorOptions(env);
  if (env.WEBHOOK_PORT !== undefined && !Number.isInteger(Number(env.WEBHOOK_PORT))) {
    return { error: `WEBHOOK_PORT ${env.WEBHOOK_PORT} is not an integer` }; // §0: fatal
  }
  const args = [...argv];
  while (args.length > 0) {
    const raw = args.shift() as string;
    const eq = raw.indexOf('=');
    const flag = eq > 0 ? raw.slice(0, eq) : raw;
    const takes = () => (eq > 0 ? raw.slice(eq + 1) : (args.shift() ?? ''));
    const bool = () => (eq > 0 ? raw.slice(eq + 1) !== 'false' : true);
    const dur = (v: string) => parseDuration(v);
    switch (flag) {
      case '--kubeconfig':
        o.kubeconfig = takes();
        break;
      case '--namespace':
        o.namespace = takes() || undefined;
        break;
      case '--kruise-namespace':
        o.kruiseNamespace = takes();
        break;
      case '--controllers': {
        const v = takes();
        o.controllers = v === 'all' ? 'all' : v.split(',').filter(Boolean);
        break;
      }
      case '--workers':
        o.workers = Number(takes());
        break;
      case '--feature-gates': {
        const r = parseFeatureGatesFlag(takes());
        if ('error' in r) return { error: r.error };
        o.featureGates = { ...o.featureGates, ...r.gates };
        break;
      }
      case '--enable-deletion-protection':
        o.featureGates = { ...o.featureGates, ResourcesDeletionProtection: bool() };
        break;
      case '--enable-leader-election':
        o.leaderElection.enabled = bool();
        break;
      case '--leader-election-namespace':
        o.leaderElection.namespace = takes();
        break;
      case '--leader-election-id':
        o.leaderElection.id = takes();
        break;
      case '--leader-election-identity':
        o.leaderElection.identity = takes();
        break;
      case '--leader-election-lease-duration':
      case '--leader-election-renew-deadline':
      case '--leader-election-retry-period': {
        const v = takes();
        const ms = dur(v);
        if (ms === undefined) return { error: `${flag}: bad duration ${v}` };
        if (flag.endsWith('duration')) o.leaderElection.leaseDurationMs = ms;
        else if (flag.endsWith('deadline')) o.leaderElection.renewDeadlineMs = ms;
        else o.leaderElection.retryPeriodMs = ms;
        break;
      }
      case '--metrics-addr':
        o.metricsAddr = takes();
        break;
      case '--health-probe-addr':
        o.healthProbeAddr = takes();
        break;
      case '--webhook-port':
        o.webhook.port = Number(takes());
        break;
      case '--webhook-bind':
        o.webhook.bind = takes();
        break;
      case '--webhook-host':
        o.webhook.host = takes() || undefined;
        break;
      case '--disable-webhooks':
        o.webhook.enabled = !bool();
        break;
      case '--install-webhooks':
        o.webhook.install = bool();
        break;
      case '--pod-webhook-failure-policy': {
        const v = takes();
        if (v !== 'Fail' && v !== 'Ignore')
          return { error: `--pod-webhook-failure-policy must be Fail or Ignore, got ${v}` };
        o.webhook.podFailurePolicy = v;
        break;
      }
      case '--expectation-timeout': {
        const ms = dur(takes());
        if (ms === undefined) return { error: '--expectation-timeout: bad duration' };
        o.expectationTimeoutSeconds = ms / 1000;
        break;
      }
      case '--rate-limiter-base-delay':
        o.rateLimiter.baseDelayMs = dur(takes()) ?? 5;
        break;
      case '--rate-limiter-max-delay':
        o.rateLimiter.maxDelayMs = dur(takes()) ?? 1_000_000;
        break;
      case '--rate-limiter-qps':
        o.rateLimiter.qps = Number(takes());
        break;
      case '--rate-limiter-bucket-size':
        o.rateLimiter.burst = Number(takes());
        break;
      case '--nodeimage-creation-delay': {
        const ms = dur(takes());
        if (ms === undefined) return { error: '--nodeimage-creation-delay: bad duration' };
        o.nodeImageCreationDelaySeconds = ms / 1000;
        break;
      }
      case '--protection-log-path':
        o.protectionLogPath = takes();
        break;
      case '--log-level':
        o.logLevel = takes();
        break;
      case '--events':
        o.events = bool();
        break;
      case '--write-concurrency':
        o.writeConcurrency = Number(takes());
        break;
      case '--on-leadership-lost': {
        const v = takes();
        if (v !== 'exit' && v !== 'standby') return { error: `--on-leadership-lost: ${v}` };
        o.onLeadershipLost = v;
        break;
      }
      default:
        if (flag.endsWith('-workers') && flag.startsWith('--')) o.workers = Number(takes());
        else return { error: `unknown flag ${flag}` };
    }
  }
  if (!Number.isInteger(o.workers) || o.workers < 1) return { error: '--workers must be a positive integer' };
  return o;
}
