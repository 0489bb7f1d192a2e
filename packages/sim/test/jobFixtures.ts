// Fixtures shared by the tests of batch/v1 Jobs in the simulator (kinds.job.test.ts) and on its
// API server (apiserver/jobs.test.ts, apiserver/conversion.test.ts).

/**
 * An AdvancedCronJob whose template is a `jobTemplate` (docs/reference/advancedcronjob.md AC4): each run is
 * a batch/v1 Job of one `restartPolicy: Never` pod with one container `c` running `image`.
 * Defaults: apps.kruise.io/v1beta1, schedule every minute, busybox:1, no namespace (the API path's).
 */
export function cronJobOfJobs(
  name: string,
  opts: { apiVersion?: string; schedule?: string; image?: string; namespace?: string } = {},
): any {
  const { apiVersion = 'apps.kruise.io/v1beta1', schedule = '*/1 * * * *', image = 'busybox:1' } = opts;
  return {
    apiVersion,
    kind: 'AdvancedCronJob',
    metadata: { name, ...(opts.namespace !== undefined ? { namespace: opts.namespace } : {}) },
    spec: {
      schedule,
      template: {
        jobTemplate: {
          spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image }] } } },
        },
      },
    },
  };
}
