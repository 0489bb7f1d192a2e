// Shared fixtures of the defaulting tests.

export const meta = { name: 'demo', namespace: 'default' };
export const selector = { matchLabels: { app: 'demo' } };
export const template = () => ({
  metadata: { labels: { app: 'demo' } },
  spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] },
});
export const podDefaults = {
  restartPolicy: 'Always',
  terminationGracePeriodSeconds: 30,
  dnsPolicy: 'ClusterFirst',
  securityContext: {},
  schedulerName: 'default-scheduler',
};
export const containerDefaults = {
  imagePullPolicy: 'IfNotPresent',
  terminationMessagePath: '/dev/termination-log',
  terminationMessagePolicy: 'File',
};
