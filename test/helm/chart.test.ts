// The Helm chart (charts/kruise-ts) with the real helm: it lints, its default rendering is exactly
// the kustomize manifests (packages/operator/deploy + packages/daemon/deploy, the one source of
// both; the CRDs come from the crds subchart's crds/ folder, so `helm template` prints them only
// with --include-crds), the packaged chart keeps the CRDs out of what Helm stores in the release,
// and its values reach the objects they promise: feature gates and flags in the manager's
// arguments, excluded namespaces and failure policy in the webhooks, the runtime socket in the
// daemon, the pre-delete uninstall check, and the schema's refusals.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skipWithoutRealTool } from '../support/realTools';
import {
  CHART,
  find,
  helm,
  helmMissing,
  isHook,
  keyOf,
  kustomizeObjects,
  type Obj,
  packagedFiles,
  ROOT,
  render,
} from './render';

const ALL_ON = join(CHART, 'ci/all-on-values.yaml');
const OPERATOR_DEPLOY = join(ROOT, 'packages/operator/deploy');
const DAEMON_DEPLOY = join(ROOT, 'packages/daemon/deploy');

const managerContainer = (objs: readonly Obj[]) =>
  find(objs, 'Deployment', 'kruise-controller-manager').spec.template.spec.containers[0];
const daemonSet = (objs: readonly Obj[]) => find(objs, 'DaemonSet', 'kruise-daemon');
const webhooks = (objs: readonly Obj[]) =>
  objs.filter((o) => o.kind.endsWith('WebhookConfiguration')).flatMap((o) => o.webhooks as Obj[]);
const hasPods = (h: Obj) => h.rules.some((r: { resources: string[] }) => r.resources.includes('pods'));
const isCrd = (o: Obj) => o.kind === 'CustomResourceDefinition';

if (!skipWithoutRealTool('helm chart (charts/kruise-ts)', helmMissing())) {
  describe('helm lint', () => {
    it.each([
      ['default values', []],
      ['every option on', ['-f', ALL_ON]],
    ])('passes with %s', (_name, args) => {
      const r = helm(['lint', '--strict', CHART, ...args]);
      expect(r.stderr + r.stdout).toContain('1 chart(s) linted, 0 chart(s) failed');
      expect(r.status).toBe(0);
    });
  });

  describe('one source of truth: the default rendering is the kustomize manifests', () => {
    // --include-crds adds the crds/ folders' CRDs, which a plain `helm template` leaves out as
    // `helm install` creates them apart, before the templates
    const chart = render(['--include-crds']);
    const kustomize = [...kustomizeObjects(OPERATOR_DEPLOY), ...kustomizeObjects(DAEMON_DEPLOY)];

    it('renders the same objects, each field for field (hooks aside)', () => {
      const rendered = chart.filter((o) => !isHook(o));
      expect(rendered.map(keyOf).sort()).toEqual(kustomize.map(keyOf).sort());
      const byKey = new Map(kustomize.map((o) => [keyOf(o), o]));
      for (const o of rendered) expect(o, keyOf(o)).toEqual(byKey.get(keyOf(o)));
    });

    it('the CRDs come from crds/ only: the templates render every other object, and no CRD', () => {
      const templates = render().filter((o) => !isHook(o));
      expect(templates.some(isCrd)).toBe(false);
      expect(templates.map(keyOf).sort()).toEqual(
        kustomize
          .filter((o) => !isCrd(o))
          .map(keyOf)
          .sort(),
      );
      const sources = helm(['template', 'kruise-ts', CHART, '--include-crds']).stdout.match(
        /^# Source: .*\.apps\.kruise\.io\.yaml$/gm,
      );
      expect(sources?.length).toBe(11);
      for (const line of sources ?? []) expect(line).toMatch(/^# Source: kruise-ts\/charts\/crds\/crds\//);
    });

    it('covers every manifest of both deploy folders', () => {
      expect(kustomize.filter((o) => o.kind === 'CustomResourceDefinition')).toHaveLength(11);
      for (const kind of [
        'Deployment',
        'DaemonSet',
        'MutatingWebhookConfiguration',
        'ValidatingWebhookConfiguration',
      ])
        expect(
          kustomize.some((o) => o.kind === kind),
          kind,
        ).toBe(true);
    });
  });

  describe('values reach the objects', () => {
    const allOn = render(['-f', ALL_ON]);

    it('feature gates, log level, leader election and extra flags become manager arguments', () => {
      const c = managerContainer(allOn);
      expect(c.args).toContain(
        '--feature-gates=ImagePullJobGate=true,ResourcesDeletionProtection=true,PodWebhook=true,KruiseDaemon=true',
      );
      expect(c.args).toContain('--log-level=debug');
      expect(c.args).toContain('--enable-leader-election');
      expect(c.args.slice(-2)).toEqual(['--workers=5', '--enable-deletion-protection']);
      expect(c.image).toBe('registry.example.com/kruise-ts/operator:0.1.0-rc.1');
      expect(c.resources.limits).toEqual({ cpu: '4', memory: '2Gi' });
      expect(find(allOn, 'Deployment', 'kruise-controller-manager').spec.replicas).toBe(3);

      const off = managerContainer(
        render(['--set', 'featureGates=', '--set', 'manager.leaderElection.enabled=false']),
      );
      expect(off.args.some((a: string) => a.startsWith('--feature-gates'))).toBe(false);
      expect(off.args).toContain('--enable-leader-election=false');
    });

    it('the pull-secret RBAC follows ImagePullJobGate', () => {
      expect(allOn.some((o) => o.metadata.name === 'kruise-manager-secrets-role')).toBe(true);
      const without = render(['--set', 'featureGates=PodWebhook=true']);
      expect(without.some((o) => o.metadata.name === 'kruise-manager-secrets-role')).toBe(false);
      expect(without.some((o) => o.metadata.name === 'kruise-daemon-config-secrets')).toBe(false);
    });

    it('every webhook excludes kube-system, control-plane=openkruise and the extra namespaces', () => {
      const all = webhooks(allOn);
      expect(all.length).toBeGreaterThan(20);
      for (const h of all) {
        expect(h.namespaceSelector.matchExpressions, h.name).toEqual([
          { key: 'control-plane', operator: 'NotIn', values: ['openkruise'] },
          {
            key: 'kubernetes.io/metadata.name',
            operator: 'NotIn',
            values: ['kube-system', 'monitoring', 'istio-system'],
          },
        ]);
        expect(h.timeoutSeconds, h.name).toBe(10);
      }
      // kube-system cannot be dropped: a value listing it again changes nothing
      const again = webhooks(render(['--set', 'webhookConfiguration.excludedNamespaces={kube-system}']));
      for (const h of again) expect(h.namespaceSelector.matchExpressions[1].values).toEqual(['kube-system']);
    });

    it('the pods failure policy applies to the pod webhooks only', () => {
      const defaults = new Map(webhooks(render()).map((h) => [h.name, h.failurePolicy]));
      const pods = webhooks(allOn).filter((h) => hasPods(h) && !h.objectSelector);
      expect(pods.length).toBeGreaterThan(0);
      for (const h of webhooks(allOn)) {
        expect(h.failurePolicy, h.name).toBe(pods.includes(h) ? 'Ignore' : defaults.get(h.name));
      }
    });

    it.each([
      ['containerd', [], '/run/containerd', 'Directory', 'containerd/containerd.sock'],
      ['crio', [], '/run/crio', 'Directory', 'crio/crio.sock'],
      ['cri-dockerd', [], '/run/cri-dockerd.sock', 'Socket', 'cri-dockerd.sock'],
      [
        'containerd',
        ['--set', 'daemon.socketHostPath=/run/k3s/containerd/containerd.sock'],
        '/run/k3s/containerd',
        'Directory',
        'custom/containerd.sock',
      ],
    ])('daemon on %s %j mounts %s (%s) and uses %s', (runtime, extra, hostPath, type, socketFile) => {
      const ds = daemonSet(render(['--set', `daemon.runtime=${runtime}`, ...extra]));
      const pod = ds.spec.template.spec;
      const c = pod.containers[0];
      expect(pod.volumes).toEqual([{ name: 'runtime-socket', hostPath: { path: hostPath, type } }]);
      expect(c.args).toContain(`--socket-file=${socketFile}`);
      expect(c.args).toContain('--var-run-dir=/hostvarrun');
      // the socket the daemon dials is inside the mount, and the readiness probe dials the same one
      const socket = `/hostvarrun/${socketFile}`;
      const mount = c.volumeMounts[0].mountPath as string;
      expect(socket === mount || socket.startsWith(`${mount}/`)).toBe(true);
      expect(c.readinessProbe.exec.command.at(-1)).toBe(socket);
    });

    it('daemon scheduling, image, resources and priority class come from the values', () => {
      const ds = daemonSet(allOn);
      const pod = ds.spec.template.spec;
      expect(pod.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux', 'kruise.io/daemon': 'true' });
      expect(pod.tolerations).toEqual([{ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }]);
      expect(pod.priorityClassName).toBe('system-node-critical');
      expect(pod.containers[0].image).toBe('registry.example.com/kruise-ts/daemon:0.1.0-rc.1');
      expect(pod.containers[0].args).toContain('--log-level=debug');
      expect(pod.containers[0].securityContext.readOnlyRootFilesystem).toBe(true);
    });

    it('daemon.enabled=false and installCRDs=false leave those objects out', () => {
      const objs = render(['--include-crds', '--set', 'daemon.enabled=false', '--set', 'installCRDs=false']);
      const daemonNames = kustomizeObjects(DAEMON_DEPLOY).map(keyOf);
      expect(objs.filter((o) => daemonNames.includes(keyOf(o)))).toEqual([]);
      expect(objs.some((o) => o.kind === 'CustomResourceDefinition')).toBe(false);
      expect(objs.some((o) => o.kind === 'Deployment')).toBe(true);
    });

    it('createNamespace=false leaves kruise-system out and keeps kruise-daemon-config', () => {
      const names = (objs: Obj[]) => objs.filter((o) => o.kind === 'Namespace').map((o) => o.metadata.name);
      expect(names(render())).toEqual(['kruise-system', 'kruise-daemon-config']);
      expect(names(render(['--set', 'createNamespace=false']))).toEqual(['kruise-daemon-config']);
    });

    it('the pre-delete hook runs the uninstall check, and can be turned off', () => {
      const objs = render();
      const job = find(objs, 'Job', 'kruise-ts-finalizer');
      expect(job.metadata.annotations?.['helm.sh/hook']).toBe('pre-delete');
      const script = find(objs, 'ConfigMap', 'kruise-helm-hook').data['uninstall-check.sh'];
      expect(script).toBe(readFileSync(join(OPERATOR_DEPLOY, 'uninstall-check.sh'), 'utf8'));
      expect(find(objs, 'ClusterRole', 'kruise-helm-hook-role').rules).toEqual([
        {
          apiGroups: ['apps.kruise.io'],
          resources: ['clonesets', 'statefulsets', 'daemonsets'],
          verbs: ['list'],
        },
      ]);
      const off = render(['--set', 'uninstallCheck.enabled=false']);
      expect(off.some(isHook)).toBe(false);
    });
  });

  describe('the packaged chart: what Helm keeps in the release Secret', () => {
    // Helm stores a release in a Secret (gzip, then base64), and a Secret holds at most 1 MiB. The
    // stored chart is the parent chart's templates, values and files, never its subcharts, so
    // the CRDs must be in the crds subchart only, and not among the parent's files.
    const files = packagedFiles();
    const names = [...files.keys()];

    it('the crds subchart holds the eleven CRDs, byte for byte those of packages/operator/deploy/crds', () => {
      const prefix = 'kruise-ts/charts/crds/crds/';
      const crds = names.filter((n) => n.startsWith(prefix)).map((n) => n.slice(prefix.length));
      expect(crds).toHaveLength(11);
      expect(crds.sort()).toEqual(readdirSync(join(OPERATOR_DEPLOY, 'crds')).sort());
      for (const f of crds)
        expect(files.get(prefix + f)?.equals(readFileSync(join(OPERATOR_DEPLOY, 'crds', f))), f).toBe(true);
    });

    it('the parent chart stores no CRD, and is small', () => {
      const parent = names.filter((n) => !n.startsWith('kruise-ts/charts/'));
      expect(parent).toContain('kruise-ts/files/operator/manager.yaml');
      for (const n of parent)
        expect(files.get(n)?.toString('utf8'), n).not.toMatch(/^kind: CustomResourceDefinition$/m);
      const bytes = parent.reduce((sum, n) => sum + (files.get(n)?.length ?? 0), 0);
      // uncompressed, and base64 in the stored JSON: still far under the Secret's 1 MiB once gzipped
      expect(bytes).toBeLessThan(256 * 1024);
    });
  });

  describe('values.schema.json refuses bad values', () => {
    it.each([
      ['daemon.runtime=docker'],
      ['featureGates=ImagePullJobGate'],
      ['webhookConfiguration.timeoutSeconds=31'],
      ['webhookConfiguration.failurePolicy.pods=Maybe'],
      ['manager.log.level=loud'],
      ['daemon.socketHostPath=relative/containerd.sock'],
      ['nosuchvalue=1'],
    ])('--set %s', (set) => {
      const r = helm(['template', 'kruise-ts', CHART, '--set', set]);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/schema|values don't meet/i);
    });
  });
}
