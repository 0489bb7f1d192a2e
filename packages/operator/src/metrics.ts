// Prometheus metrics (prom-client) of docs/reference/operator.md §3.9 plus the shell's own: leadership,
// deletion-protection denials, reconciles, work queue, API requests (API writes per pod in the
// benchmark). One registry per operator instance, so two replicas can run in one process.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The operator's metrics. */
export class OperatorMetrics {
  readonly registry = new Registry();
  readonly isLeader = new Gauge({
    name: 'kruise_manager_is_leader',
    help: '1 when this replica leads',
    registers: [this.registry],
  });
  readonly namespaceProtection = new Counter({
    name: 'namespace_deletion_protection',
    help: 'Namespace deletions denied by deletion protection',
    labelNames: ['name', 'username'],
    registers: [this.registry],
  });
  readonly crdProtection = new Counter({
    name: 'crd_deletion_protection',
    help: 'CRD deletions denied by deletion protection',
    labelNames: ['name', 'username'],
    registers: [this.registry],
  });
  readonly workloadProtection = new Counter({
    name: 'workload_deletion_protection',
    help: 'Workload deletions denied by deletion protection',
    labelNames: ['kind_namespace_name', 'username'],
    registers: [this.registry],
  });
  readonly scaleExpectationLeakage = new Counter({
    name: 'cloneset_scale_expectation_leakage',
    help: 'Scale expectations dropped after the expectation timeout',
    labelNames: ['namespace', 'name'],
    registers: [this.registry],
  });
  readonly reconciles = new Counter({
    name: 'controller_runtime_reconcile_total',
    help: 'Reconciles by controller and result',
    labelNames: ['controller', 'result'],
    registers: [this.registry],
  });
  readonly reconcileSeconds = new Histogram({
    name: 'controller_runtime_reconcile_time_seconds',
    help: 'Reconcile duration (including action execution)',
    labelNames: ['controller'],
    registers: [this.registry],
  });
  readonly queueDepth = new Gauge({
    name: 'workqueue_depth',
    help: 'Keys waiting in the work queue',
    labelNames: ['name'],
    registers: [this.registry],
  });
  readonly queueRetries = new Counter({
    name: 'workqueue_retries_total',
    help: 'Rate-limited re-adds',
    labelNames: ['name'],
    registers: [this.registry],
  });
  readonly apiRequests = new Counter({
    name: 'rest_client_requests_total',
    help: 'API requests by method and status code',
    labelNames: ['method', 'code'],
    registers: [this.registry],
  });
  readonly webhookRequests = new Counter({
    name: 'kruise_webhook_requests_total',
    help: 'Admission requests by path and whether they were allowed',
    labelNames: ['path', 'allowed'],
    registers: [this.registry],
  });

  /** API writes sent so far (every method but GET). */
  async writes(): Promise<number> {
    const m = await this.apiRequests.get();
    return m.values.filter((v) => v.labels.method !== 'GET').reduce((s, v) => s + v.value, 0);
  }
}
