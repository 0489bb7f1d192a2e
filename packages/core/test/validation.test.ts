import {
  formatFieldError,
  validateAnnotations,
  validateImmutableField,
  validateIntOrPercent,
  validateLabels,
  validateNonNegative,
  validateObjectMeta,
  validatePodTemplateBasics,
  validateScatterStrategy,
  validateSelectorMatchesTemplate,
  validateUpdatePriorityStrategy,
  validateWorkloadSelector,
} from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { PodTemplateSpec } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { validateDNS1123Label, validateQualifiedName } from '../src/contract/validation';

const F = 'spec.updateStrategy.maxUnavailable';

describe('validateIntOrPercent', () => {
  it('ints must be >= 0', () => {
    expect(validateIntOrPercent(0, F)).toEqual([]);
    expect(validateIntOrPercent(3, F)).toEqual([]);
    expect(formatFieldError(validateIntOrPercent(-1, F)[0])).toBe(
      `${F}: Invalid value: -1: must be greater than or equal to 0`,
    );
    expect(validateIntOrPercent(undefined, F)).toEqual([]);
  });
  it("default (Kubernetes IsValidPercent '[0-9]+%')", () => {
    expect(validateIntOrPercent('20%', F)).toEqual([]);
    for (const bad of ['20', '1.5%', '-5%', '%', 'abc']) {
      const errs = validateIntOrPercent(bad, F);
      expect(errs).toHaveLength(1);
      expect(errs[0].detail).toMatch(
        /^a valid percent string must be a numeric string followed by an ending '%'/,
      );
    }
  });
  it('maxPercent100 and allowPercent', () => {
    expect(validateIntOrPercent('120%', F, { maxPercent100: true })[0].detail).toBe(
      'must not be greater than 100%',
    );
    expect(validateIntOrPercent('100%', F, { maxPercent100: true })).toEqual([]);
    expect(validateIntOrPercent('10%', F, { allowPercent: false })[0].detail).toBe('must be an integer');
  });
  it('helper options follow the helper used to resolve the field (docs/reference/core.md §6.1)', () => {
    // (c) kruise: fractions ok, "99" is an error (partition)
    expect(validateIntOrPercent('99.99%', 'spec.updateStrategy.partition', { helper: 'kruise' })).toEqual([]);
    expect(validateIntOrPercent('99', 'spec.updateStrategy.partition', { helper: 'kruise' })).toHaveLength(1);
    // (b) legacy: "5" is 5 %
    expect(validateIntOrPercent('5', F, { helper: 'legacy' })).toEqual([]);
    expect(validateIntOrPercent('1.5%', F, { helper: 'legacy' })).toHaveLength(1);
    // (a) scaled: must end with %
    expect(validateIntOrPercent('5', F, { helper: 'scaled' })).toHaveLength(1);
    expect(validateIntOrPercent('-5%', F, { helper: 'scaled' })[0].detail).toBe(
      'must be greater than or equal to 0',
    );
  });
  it('validateNonNegative', () => {
    expect(validateNonNegative(0, 'spec.replicas')).toEqual([]);
    expect(formatFieldError(validateNonNegative(-1, 'spec.replicas')[0])).toBe(
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    );
  });
});

describe('selectors of workloads', () => {
  it('selector required, non-empty, valid', () => {
    expect(validateWorkloadSelector(undefined, 'spec.selector', 'CloneSet')[0].type).toBe(
      'FieldValueRequired',
    );
    expect(validateWorkloadSelector({}, 'spec.selector', 'CloneSet')[0].detail).toBe(
      'empty selector is invalid for cloneset',
    );
    expect(validateWorkloadSelector({ matchLabels: { app: 'x' } }, 'spec.selector', 'CloneSet')).toEqual([]);
    expect(
      validateWorkloadSelector(
        { matchExpressions: [{ key: 'a', operator: 'In' }] },
        'spec.selector',
        'CloneSet',
      ),
    ).toHaveLength(1);
  });
  it('selector must match the template labels', () => {
    const f = 'spec.template.metadata.labels';
    expect(validateSelectorMatchesTemplate({ matchLabels: { app: 'x' } }, { app: 'x', v: '1' }, f)).toEqual(
      [],
    );
    const errs = validateSelectorMatchesTemplate({ matchLabels: { app: 'x' } }, { app: 'y' }, f);
    expect(errs).toEqual([
      {
        type: 'FieldValueInvalid',
        field: f,
        badValue: { app: 'y' },
        detail: '`selector` does not match template `labels`',
      },
    ]);
  });
});

describe('names, labels, annotations, object meta', () => {
  it('DNS-1123 labels and qualified names', () => {
    expect(validateDNS1123Label('my-name', 'f')).toEqual([]);
    expect(validateDNS1123Label('My_Name', 'f')[0].detail).toMatch(
      /^a lowercase RFC 1123 label must consist of/,
    );
    expect(validateDNS1123Label('a'.repeat(64), 'f')[0].detail).toBe('must be no more than 63 characters');
    expect(validateQualifiedName('example.com/MyName', 'f')).toEqual([]);
    expect(validateQualifiedName('a/b/c', 'f')).toHaveLength(1);
  });
  it('labels and annotations', () => {
    expect(validateLabels({ 'app.kubernetes.io/name': 'web', v: '' }, 'metadata.labels')).toEqual([]);
    expect(validateLabels({ v: 'a b' }, 'metadata.labels')).toHaveLength(1);
    expect(validateAnnotations({ 'Example.COM/Key': 'any value at all' }, 'metadata.annotations')).toEqual(
      [],
    );
    expect(validateAnnotations({ big: 'x'.repeat(256 * 1024) }, 'metadata.annotations')[0].type).toBe(
      'FieldValueTooLong',
    );
  });
  it('object meta: name or generateName required, subdomain syntax, namespace', () => {
    expect(validateObjectMeta({ name: 'web', namespace: 'default' }, 'metadata')).toEqual([]);
    expect(validateObjectMeta({ generateName: 'web-', namespace: 'default' }, 'metadata')).toEqual([]);
    expect(validateObjectMeta({ generateName: 'Web-', namespace: 'default' }, 'metadata')[0].field).toBe(
      'metadata.generateName',
    );
    expect(validateObjectMeta({ namespace: 'default' }, 'metadata')[0].detail).toBe(
      'name or generateName is required',
    );
    expect(validateObjectMeta({ name: 'Web', namespace: 'default' }, 'metadata')[0].field).toBe(
      'metadata.name',
    );
    expect(validateObjectMeta({ name: 'web' }, 'metadata')[0]).toMatchObject({
      type: 'FieldValueRequired',
      field: 'metadata.namespace',
    });
    expect(
      validateObjectMeta({ name: 'web', namespace: 'x' }, 'metadata', { namespaced: false })[0].type,
    ).toBe('FieldValueForbidden');
    expect(
      validateObjectMeta({ name: 'a.b', namespace: 'd' }, 'metadata', { nameIsLabel: true }),
    ).toHaveLength(1);
  });
});

describe('validatePodTemplateBasics', () => {
  const good: PodTemplateSpec = deepFreeze({
    metadata: { labels: { app: 'web' } },
    spec: {
      volumes: [{ name: 'data', emptyDir: {} }],
      containers: [
        {
          name: 'main',
          image: 'nginx:1.25',
          ports: [{ name: 'http', containerPort: 80 }],
          volumeMounts: [{ name: 'data', mountPath: '/data' }],
        },
      ],
    },
  });
  const T = 'spec.template';
  it('a good template has no errors', () => {
    expect(validatePodTemplateBasics(good, T)).toEqual([]);
  });
  it('containers required', () => {
    const errs = validatePodTemplateBasics({ spec: { containers: [] } }, T);
    expect(errs).toEqual([
      { type: 'FieldValueRequired', field: 'spec.template.spec.containers', detail: '' },
    ]);
  });
  it('unique DNS-1123 container names (init containers included) and image required', () => {
    const errs = validatePodTemplateBasics(
      {
        spec: {
          initContainers: [{ name: 'main', image: 'busybox' }],
          containers: [
            { name: 'main', image: '' },
            { name: 'Bad_Name', image: 'x' },
          ],
        },
      },
      T,
    );
    expect(errs.map((e) => `${e.type} ${e.field}`)).toEqual([
      'FieldValueDuplicate spec.template.spec.containers[0].name',
      'FieldValueRequired spec.template.spec.containers[0].image',
      'FieldValueInvalid spec.template.spec.containers[1].name',
    ]);
  });
  it('ports 1-65535, protocol TCP/UDP/SCTP, unique port names per container', () => {
    const errs = validatePodTemplateBasics(
      {
        spec: {
          containers: [
            {
              name: 'c',
              image: 'x',
              ports: [
                { name: 'http', containerPort: 0 },
                { name: 'http', containerPort: 70000, protocol: 'HTTP' },
                { containerPort: 80, hostPort: -1 },
              ],
            },
          ],
        },
      },
      T,
    );
    expect(errs.map((e) => `${e.type} ${e.field}`)).toEqual([
      'FieldValueInvalid spec.template.spec.containers[0].ports[0].containerPort',
      'FieldValueDuplicate spec.template.spec.containers[0].ports[1].name',
      'FieldValueInvalid spec.template.spec.containers[0].ports[1].containerPort',
      'FieldValueNotSupported spec.template.spec.containers[0].ports[1].protocol',
      'FieldValueInvalid spec.template.spec.containers[0].ports[2].hostPort',
    ]);
    expect(errs[0].detail).toBe('must be between 1 and 65535, inclusive');
  });
  it('unique volume names; volumeMounts must name a volume', () => {
    const errs = validatePodTemplateBasics(
      {
        spec: {
          volumes: [{ name: 'v' }, { name: 'v' }],
          containers: [{ name: 'c', image: 'x', volumeMounts: [{ name: 'missing', mountPath: '/m' }] }],
        },
      },
      T,
    );
    expect(errs.map((e) => `${e.type} ${e.field}`)).toEqual([
      'FieldValueDuplicate spec.template.spec.volumes[1].name',
      'FieldValueInvalid spec.template.spec.containers[0].volumeMounts[0].name',
    ]);
  });
  it('a volumeClaimTemplates name counts as a volume (each claim template becomes one in every pod)', () => {
    const template = deepFreeze({
      spec: {
        volumes: [{ name: 'config' }],
        containers: [
          {
            name: 'c',
            image: 'x',
            volumeMounts: [
              { name: 'data', mountPath: '/data' },
              { name: 'config', mountPath: '/etc/app' },
              { name: 'neither', mountPath: '/n' },
            ],
          },
        ],
      },
    });
    const claims = deepFreeze([{ metadata: { name: 'data' } }, { metadata: {} }, null]);
    expect(
      validatePodTemplateBasics(template, T, { volumeClaimTemplates: claims as never }).map(formatFieldError),
    ).toEqual(['spec.template.spec.containers[0].volumeMounts[2].name: Invalid value: "neither": not found']);
    // without the claim templates (a DaemonSet, a SidecarSet) `data` is not found either
    expect(validatePodTemplateBasics(template, T).map((e) => e.field)).toEqual([
      'spec.template.spec.containers[0].volumeMounts[0].name',
      'spec.template.spec.containers[0].volumeMounts[2].name',
    ]);
    expect(validatePodTemplateBasics(template, T, { volumeClaimTemplates: 'junk' as never })).toHaveLength(2);
  });
  it('restartPolicy must be Always (or empty) for workloads; activeDeadlineSeconds can be forbidden', () => {
    const t = {
      spec: { restartPolicy: 'Never', activeDeadlineSeconds: 5, containers: [{ name: 'c', image: 'x' }] },
    };
    const errs = validatePodTemplateBasics(t, T, { forbidActiveDeadlineSecondsFor: 'CloneSet' });
    expect(errs.map((e) => formatFieldError(e))).toEqual([
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in CloneSet is not Supported',
    ]);
    expect(validatePodTemplateBasics(t, T, { allowAnyRestartPolicy: true })).toEqual([]);
  });
});

describe('validateImmutableField', () => {
  it('"field is immutable" unless deep-equal', () => {
    expect(validateImmutableField({ a: 1, b: [1] }, { b: [1], a: 1 }, 'spec.selector')).toEqual([]);
    expect(formatFieldError(validateImmutableField('b', 'a', 'spec.serviceName')[0])).toBe(
      'spec.serviceName: Invalid value: "b": field is immutable',
    );
  });
});

describe('R4.1 update priority strategy', () => {
  const P = 'spec.updateStrategy.priorityStrategy';
  it('valid strategies, including weight 0', () => {
    expect(validateUpdatePriorityStrategy(undefined, P)).toEqual([]);
    expect(
      validateUpdatePriorityStrategy(
        { weightPriority: [{ weight: 0, matchSelector: { matchLabels: { a: 'b' } } }] },
        P,
      ),
    ).toEqual([]);
    expect(validateUpdatePriorityStrategy({ orderPriority: [{ orderedKey: 'k' }] }, P)).toEqual([]);
  });
  it('only one of weightPriority and orderPriority', () => {
    const errs = validateUpdatePriorityStrategy(
      {
        weightPriority: [{ weight: 1, matchSelector: { matchLabels: { a: 'b' } } }],
        orderPriority: [{ orderedKey: 'k' }],
      },
      P,
    );
    expect(errs).toEqual([
      {
        type: 'FieldValueRequired',
        field: P,
        detail: 'only one of weightPriority and orderPriority can be used',
      },
    ]);
  });
  it('weights outside [0, 100], empty or invalid selectors, empty ordered keys', () => {
    expect(
      validateUpdatePriorityStrategy(
        {
          weightPriority: [
            { weight: 101, matchSelector: { matchLabels: { a: 'b' } } },
            { weight: -1, matchSelector: {} },
            { weight: 5, matchSelector: { matchExpressions: [{ key: 'a', operator: 'Bad' }] } },
          ],
        },
        P,
      ).map((e) => e.detail),
    ).toEqual([
      'weight must be valid number in the range 1-100',
      'weight must be valid number in the range 1-100',
      'selector can not be empty',
      'invalid selector not a valid selector operator',
    ]);
    expect(validateUpdatePriorityStrategy({ orderPriority: [{ orderedKey: '' }] }, P)[0].detail).toBe(
      'order key can not be empty',
    );
  });
});

describe('scatter strategy (docs/reference/cloneset.md §2.2)', () => {
  const S = 'spec.updateStrategy.scatterStrategy';
  it('non-empty keys, unique key:value pairs, empty values allowed', () => {
    expect(
      validateScatterStrategy(
        [
          { key: 'k', value: '' },
          { key: 'k', value: 'v' },
        ],
        S,
      ),
    ).toEqual([]);
    expect(validateScatterStrategy([{ key: '', value: 'v' }], S)[0].detail).toBe('key should not be empty');
    expect(
      validateScatterStrategy(
        [
          { key: 'key-1', value: 'value-1' },
          { key: 'key-1', value: 'value-1' },
        ],
        S,
      )[0].detail,
    ).toBe('duplicated key=key-1 value=value-1');
  });
});
