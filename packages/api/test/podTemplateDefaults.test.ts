// Pod-template defaults (podTemplateDefaults.ts) and image references (imageRef.ts).
import { describe, expect, it } from 'vitest';
import {
  defaultImagePullPolicy,
  imageTag,
  parseImageReference,
  setDefaultsContainer,
  setDefaultsPersistentVolumeClaim,
  setDefaultsPodSpec,
  setDefaultsPodTemplateSpec,
} from '../src/index';
import { deepFreeze } from './helpers';

const digest = `sha256:${'a'.repeat(64)}`;

describe('imagePullPolicy default (Kubernetes SetDefaults_Container)', () => {
  it.each([
    ['nginx', 'Always'],
    ['nginx:latest', 'Always'],
    ['docker.io/library/nginx', 'Always'],
    ['reg:5000/app', 'Always'],
    ['localhost/app:latest', 'Always'],
    ['nginx:1.25', 'IfNotPresent'],
    [`nginx@${digest}`, 'IfNotPresent'],
    [`nginx:latest@${digest}`, 'Always'],
    ['Nginx', 'IfNotPresent'],
    ['', 'IfNotPresent'],
  ])('%s → %s', (image, policy) => {
    expect(defaultImagePullPolicy(image)).toBe(policy);
  });

  it('an explicit imagePullPolicy is kept', () => {
    const c = deepFreeze({ name: 'c', image: 'nginx', imagePullPolicy: 'Never' as const });
    expect(setDefaultsContainer(c).imagePullPolicy).toBe('Never');
  });
});

describe('parseImageReference (docs/reference/daemon.md §2.1 grammar)', () => {
  it('nginx → docker.io/library/nginx, no tag', () => {
    expect(parseImageReference('nginx')).toEqual({
      name: 'nginx',
      domain: 'docker.io',
      path: 'library/nginx',
    });
    expect(imageTag('nginx')).toBe('latest');
  });
  it('reg:5000/x/y:1.2 → domain reg:5000, tag 1.2', () => {
    expect(parseImageReference('reg:5000/x/y:1.2')).toEqual({
      name: 'reg:5000/x/y',
      domain: 'reg:5000',
      path: 'x/y',
      tag: '1.2',
    });
  });
  it('an uppercase first component is a registry (Docker splitDockerDomain)', () => {
    expect(parseImageReference('REG/app')).toMatchObject({ domain: 'REG', path: 'app' });
  });
  it('a/b:t@digest keeps both tag and digest', () => {
    expect(parseImageReference(`a/b:t@${digest}`)).toMatchObject({ name: 'a/b', tag: 't', digest });
  });
  it.each(['', 'upper/Case', 'a'.repeat(64), 'foo:bar:baz', 'foo@sha256:short', '-bad'])(
    '%j is invalid',
    (s) => {
      expect(parseImageReference(s)).toBeUndefined();
    },
  );
});

describe('pod spec defaults (Kubernetes SetDefaults_PodSpec as kruise injects them)', () => {
  const spec = deepFreeze({
    containers: [
      {
        name: 'main',
        image: 'nginx',
        ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP' as const }],
        readinessProbe: { tcpSocket: { port: 80 }, periodSeconds: 5 },
        lifecycle: { preStop: { httpGet: { port: 80 } } },
      },
    ],
    initContainers: [{ name: 'init', image: 'busybox:1.36' }],
    volumes: [
      { name: 'empty' },
      { name: 'cm', configMap: { name: 'c' } },
      { name: 'proj', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } },
      { name: 'dapi', downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name' } }] } },
    ],
  });

  it('pod-level: restartPolicy Always, grace 30, ClusterFirst, default-scheduler, securityContext {}', () => {
    const out = setDefaultsPodSpec(spec);
    expect(out).toMatchObject({
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      schedulerName: 'default-scheduler',
      securityContext: {},
    });
    expect(out.enableServiceLinks).toBeUndefined();
  });

  it('containers: termination message path/policy, protocol TCP (explicit UDP kept), probe and handler defaults', () => {
    const c = setDefaultsPodSpec(spec).containers[0];
    expect(c.terminationMessagePath).toBe('/dev/termination-log');
    expect(c.terminationMessagePolicy).toBe('File');
    expect(c.imagePullPolicy).toBe('Always');
    expect(c.ports!.map((p) => p.protocol)).toEqual(['TCP', 'UDP']);
    expect(c.readinessProbe).toEqual({
      tcpSocket: { port: 80 },
      periodSeconds: 5,
      timeoutSeconds: 1,
      successThreshold: 1,
      failureThreshold: 3,
    });
    expect(c.lifecycle!.preStop!.httpGet).toEqual({ port: 80, path: '/', scheme: 'HTTP' });
  });

  it('init containers get the container defaults too', () => {
    expect(setDefaultsPodSpec(spec).initContainers![0]).toMatchObject({
      imagePullPolicy: 'IfNotPresent',
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
    });
  });

  it('volumes: emptyDir for no source, defaultMode 420, token expiration 3600, fieldRef apiVersion v1', () => {
    const v = setDefaultsPodSpec(spec).volumes!;
    expect(v[0]).toEqual({ name: 'empty', emptyDir: {} });
    expect(v[1].configMap!.defaultMode).toBe(420);
    expect(v[2].projected).toEqual({
      defaultMode: 420,
      sources: [{ serviceAccountToken: { path: 't', expirationSeconds: 3600 } }],
    });
    expect(v[3].downwardAPI!.items![0].fieldRef!.apiVersion).toBe('v1');
  });

  it('a template without spec gets one', () => {
    expect(setDefaultsPodTemplateSpec(deepFreeze({ metadata: { labels: { a: 'b' } } })).spec).toMatchObject({
      restartPolicy: 'Always',
    });
  });

  it('defaulting a defaulted spec changes nothing', () => {
    const once = setDefaultsPodSpec(spec);
    expect(setDefaultsPodSpec(deepFreeze(once))).toEqual(once);
  });

  it('PVC template: volumeMode Filesystem, phase Pending', () => {
    const pvc = deepFreeze({ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } });
    expect(setDefaultsPersistentVolumeClaim(pvc)).toEqual({
      metadata: { name: 'data' },
      spec: { accessModes: ['ReadWriteOnce'], volumeMode: 'Filesystem' },
      status: { phase: 'Pending' },
    });
  });
});
