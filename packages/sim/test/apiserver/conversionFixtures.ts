// Fixtures of the CRD conversion tests (conversion*.test.ts).

/** An Advanced StatefulSet at `apiVersion` with `extra` spec fields. */
export function asts(name: string, apiVersion: string, extra: Record<string, unknown> = {}): any {
  return {
    apiVersion,
    kind: 'StatefulSet',
    metadata: { name, labels: { app: name } },
    spec: {
      replicas: 2,
      serviceName: name,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'c', image: 'nginx:alpine' }] },
      },
      ...extra,
    },
  };
}
