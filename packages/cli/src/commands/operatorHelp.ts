// The help text of `kruise-ts operator`, kept apart from the command so that printing help
// does not load the operator's client stack.

/** The most used flags, for `kruise-ts operator --help` (packages/operator/README.md lists all). */
export const OPERATOR_HELP = `
Common flags (kruise-manager style; see packages/operator/README.md for all):
  --kubeconfig <file>               kubeconfig (default: in-cluster config)
  --controllers <all|a,b>           which controllers to run (default all)
  --feature-gates <Name=bool,...>   OpenKruise v1.8.2 feature gates
  --enable-deletion-protection      turn on ResourcesDeletionProtection (off by default in v1.8.2)
  --enable-leader-election          run with a coordination.k8s.io Lease
  --install-webhooks                create the webhook configurations with the generated caBundle
  --webhook-host / --webhook-bind   where the API server reaches the webhooks / where they listen
  --metrics-addr / --health-probe-addr  Prometheus metrics and health/readiness endpoints

Against the embedded cluster:
  kruise-ts serve --controllers none --kubeconfig /tmp/kts.kubeconfig &
  kruise-ts operator --kubeconfig /tmp/kts.kubeconfig --webhook-host 127.0.0.1 --webhook-bind 127.0.0.1 --install-webhooks
`;
