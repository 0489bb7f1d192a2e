import { type ImageListPullJob, setDefaultsImageListPullJob, setDefaultsImagePullJob } from '@kruise-ts/api';
import { deepFreeze } from '@kruise-ts/core/testing';
import { describe, expect, it } from 'vitest';
import { jobParallelism } from '../src/imagepulljob/spread';
import { validateImageListPullJob, validateImagePullJob } from '../src/imagepulljob/validation';
import { ilpj, ipj } from './fixtures';

const errs = (spec: Parameters<typeof ipj>[0]) => validateImagePullJob(deepFreeze(ipj(spec)));

describe('docs/reference/daemon.md §3.3 defaults (api setDefaultsImagePullJob, used by the reconcile)', () => {
  it('3.3 completionPolicy Always, pullPolicy {600, 3}, imagePullPolicy IfNotPresent, finalizer on create only', () => {
    const raw = deepFreeze({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'ImagePullJob',
      metadata: { name: 'j' },
      spec: { image: 'nginx' },
    });
    const d = setDefaultsImagePullJob(raw);
    expect(d.spec).toMatchObject({
      completionPolicy: { type: 'Always' },
      pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 },
      imagePullPolicy: 'IfNotPresent',
    });
    expect(d.metadata.finalizers).toEqual(['apps.kruise.io/deletion-protection']);
    expect(setDefaultsImagePullJob(raw, { old: raw }).metadata.finalizers).toBeUndefined();
    expect(validateImagePullJob(d)).toEqual([]);
  });
});

describe('docs/reference/daemon.md §3.4 ImagePullJob validation', () => {
  it('3.4 selector with both names and a label selector is rejected (even an empty matchLabels)', () => {
    expect(errs({ selector: { names: ['n1'], matchLabels: {} } })[0].detail).toBe(
      'can not set both names and labelSelector in this spec.selector',
    );
  });
  it('3.4 duplicate names are rejected', () => {
    expect(errs({ selector: { names: ['n1', 'n1'] } })[0].detail).toBe('duplicated name in selector names');
  });
  it('3.4 an invalid label selector is rejected', () => {
    expect(errs({ selector: { matchExpressions: [{ key: 'a', operator: 'In' }] } })[0].detail).toMatch(
      /^invalid selector: /,
    );
  });
  it('3.4 podSelector together with selector is rejected; an invalid podSelector too', () => {
    expect(errs({ selector: { names: ['n1'] }, podSelector: { matchLabels: { a: 'b' } } })[0].detail).toBe(
      'can not set both selector and podSelector',
    );
    expect(errs({ podSelector: { matchExpressions: [{ key: 'a', operator: 'Bad' }] } })[0].field).toBe(
      'spec.podSelector',
    );
  });
  it('3.4 an empty or unparsable image is rejected', () => {
    expect(errs({ image: '' })[0]).toMatchObject({ field: 'spec.image', detail: 'image can not be empty' });
    expect(errs({ image: 'Nginx' })[0].detail).toBe(
      'invalid image Nginx: invalid reference format: repository name must be lowercase',
    );
  });
  it('3.4 Always with activeDeadlineSeconds below pullPolicy.timeoutSeconds (600 if unset) is rejected', () => {
    expect(errs({ completionPolicy: { type: 'Always', activeDeadlineSeconds: 599 } })).toHaveLength(1);
    expect(errs({ completionPolicy: { type: 'Always', activeDeadlineSeconds: 600 } })).toEqual([]);
    expect(
      errs({
        completionPolicy: { type: 'Always', activeDeadlineSeconds: 100 },
        pullPolicy: { timeoutSeconds: 50 },
      }),
    ).toEqual([]);
    const noTimeout = validateImagePullJob(
      deepFreeze(ipj({ completionPolicy: { type: 'Always', activeDeadlineSeconds: 599 }, pullPolicy: {} })),
    );
    expect(noTimeout).toHaveLength(1);
  });
  it('3.4 Never with activeDeadlineSeconds or ttlSecondsAfterFinished is rejected', () => {
    expect(errs({ completionPolicy: { type: 'Never', activeDeadlineSeconds: 1000 } })[0].field).toBe(
      'spec.completionPolicy.activeDeadlineSeconds',
    );
    expect(errs({ completionPolicy: { type: 'Never', ttlSecondsAfterFinished: 10 } })[0].field).toBe(
      'spec.completionPolicy.ttlSecondsAfterFinished',
    );
    expect(errs({ completionPolicy: { type: 'Never' } })).toEqual([]);
  });
  it('3.4 any other completionPolicy type is rejected', () => {
    expect(errs({ completionPolicy: { type: 'Sometimes' as 'Always' } })[0].field).toBe(
      'spec.completionPolicy.type',
    );
  });
  it('3.4 the webhooks are refused while KruiseDaemon or ImagePullJobGate is off', () => {
    const job = deepFreeze(ipj());
    expect(validateImagePullJob(job, undefined, { featureGates: {} })[0].detail).toBe(
      'feature-gate ImagePullJobGate is not enabled',
    );
    expect(
      validateImagePullJob(job, undefined, {
        featureGates: { KruiseDaemon: false, ImagePullJobGate: true },
      })[0].detail,
    ).toBe('feature-gate KruiseDaemon is not enabled');
    expect(validateImagePullJob(job, undefined, { featureGates: { ImagePullJobGate: true } })).toEqual([]);
  });
});

describe('docs/reference/daemon.md §3.5 parallelism', () => {
  it.each([
    [undefined, 1],
    [3, 3],
    ['4', 4],
    ['50%', 0],
    ['x', 0],
    [0, 0],
  ])('3.5 parallelism %j reads as %d', (p, want) => {
    expect(jobParallelism(deepFreeze(ipj({ parallelism: p as number | string | undefined })))).toBe(want);
  });
});

describe('docs/reference/daemon.md §6.1 ImageListPullJob defaults and validation', () => {
  const list = (images: string[], spec: Partial<ImageListPullJob['spec']> = {}) =>
    validateImageListPullJob(deepFreeze(ilpj(images, spec)));
  it('6.1 defaults as 3.3 except imagePullPolicy and the finalizer', () => {
    const d = setDefaultsImageListPullJob(
      deepFreeze({
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'ImageListPullJob',
        metadata: { name: 'l' },
        spec: { images: ['a'] },
      }),
    );
    expect(d.spec).toEqual({
      images: ['a'],
      completionPolicy: { type: 'Always' },
      pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 },
    });
    expect(d.metadata.finalizers).toBeUndefined();
  });
  it('6.1 images must be non-empty, unique, at most 255, each parsable', () => {
    expect(list([])[0].detail).toBe('image can not be empty');
    expect(list(['nginx', 'nginx'])[0].detail).toBe('images cannot have duplicate values');
    expect(list(Array.from({ length: 256 }, (_, i) => `img${i}`))[0].detail).toBe(
      'the maximum number of images cannot > 255',
    );
    expect(list(Array.from({ length: 255 }, (_, i) => `img${i}`))).toEqual([]);
    expect(list(['nginx', 'Bad'])[0]).toMatchObject({ field: 'spec.images[1]' });
  });
  it('6.1 the selector rules and the Never / unknown-type rules of 3.4 apply', () => {
    expect(list(['a'], { selector: { names: ['x'], matchLabels: { a: 'b' } } })).toHaveLength(1);
    expect(list(['a'], { completionPolicy: { type: 'Never', ttlSecondsAfterFinished: 1 } })).toHaveLength(1);
    expect(list(['a'], { completionPolicy: {} })).toHaveLength(1);
  });
  it('6.1 quirk: the Always activeDeadlineSeconds ≥ timeoutSeconds check is not applied to list jobs', () => {
    const spec = { completionPolicy: { type: 'Always' as const, activeDeadlineSeconds: 10 } };
    expect(list(['nginx'], spec)).toEqual([]);
    expect(validateImagePullJob(deepFreeze(ipj({ ...spec, image: 'nginx' })))).toHaveLength(1);
  });
});
