import {
  findMatchingUntoleratedTaint,
  isQualifiedName,
  KruiseError,
  labelSelectorAsRequirements,
  labelSelectorAsString,
  matchesLabelSelector,
  matchesRequiredNodeAffinity,
  matchesSelectorString,
  matchNodeSelectorTerms,
  parseSelectorString,
  tolerationToleratesTaint,
  validateLabelSelector,
} from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Node, Pod } from 'kubernetes-types/core/v1';
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import { describe, expect, it } from 'vitest';
import { isValidLabelValue } from '../src/kube/nameValidation';
import { matchNodeSelector, tolerationsTolerateTaint } from '../src/kube/nodeAffinity';
import { requirementsToString } from '../src/kube/selectors';

describe('label selector matching (metav1.LabelSelectorAsSelector)', () => {
  it('nil selector matches nothing, empty selector matches everything', () => {
    expect(matchesLabelSelector(undefined, { a: '1' })).toBe(false);
    expect(matchesLabelSelector(null, {})).toBe(false);
    expect(matchesLabelSelector({}, { a: '1' })).toBe(true);
    expect(matchesLabelSelector({ matchLabels: {}, matchExpressions: [] }, undefined)).toBe(true);
  });
  it('matchLabels are equality requirements', () => {
    const s = { matchLabels: { app: 'web', tier: 'fe' } };
    expect(matchesLabelSelector(s, { app: 'web', tier: 'fe', x: 'y' })).toBe(true);
    expect(matchesLabelSelector(s, { app: 'web' })).toBe(false);
    expect(matchesLabelSelector(s, { app: 'web', tier: 'db' })).toBe(false);
  });
  it('In / NotIn (true when the key is absent) / Exists / DoesNotExist', () => {
    const sel = (operator: string, values?: string[]): LabelSelector => ({
      matchExpressions: [{ key: 'tier', operator, values }],
    });
    expect(matchesLabelSelector(sel('In', ['fe', 'be']), { tier: 'be' })).toBe(true);
    expect(matchesLabelSelector(sel('In', ['fe']), {})).toBe(false);
    expect(matchesLabelSelector(sel('NotIn', ['db']), {})).toBe(true);
    expect(matchesLabelSelector(sel('NotIn', ['db']), { tier: 'db' })).toBe(false);
    expect(matchesLabelSelector(sel('Exists'), { tier: '' })).toBe(true);
    expect(matchesLabelSelector(sel('Exists'), {})).toBe(false);
    expect(matchesLabelSelector(sel('DoesNotExist'), {})).toBe(true);
    expect(matchesLabelSelector(sel('DoesNotExist'), { tier: 'x' })).toBe(false);
  });
  it('an invalid selector matches nothing; validate:false (R4.2) skips key/value checks but not operators', () => {
    const badKey: LabelSelector = { matchLabels: { 'bad key': 'v' } };
    expect(matchesLabelSelector(badKey, { 'bad key': 'v' })).toBe(false);
    expect(matchesLabelSelector(badKey, { 'bad key': 'v' }, { validate: false })).toBe(true);
    const unknownOp: LabelSelector = { matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] };
    expect(matchesLabelSelector(unknownOp, { a: '2' })).toBe(false);
    expect(matchesLabelSelector(unknownOp, { a: '2' }, { validate: false })).toBe(false);
    const inWithoutValues: LabelSelector = { matchExpressions: [{ key: 'a', operator: 'In' }] };
    expect(matchesLabelSelector(inWithoutValues, { a: '' })).toBe(false);
  });
  it('does not mutate its inputs', () => {
    const s = deepFreeze({
      matchLabels: { b: '2', a: '1' },
      matchExpressions: [{ key: 'c', operator: 'In', values: ['y', 'x'] }],
    });
    expect(matchesLabelSelector(s, deepFreeze({ a: '1', b: '2', c: 'x' }))).toBe(true);
    expect(labelSelectorAsString(s)).toBe('a=1,b=2,c in (x,y)');
  });
});

describe('labelSelectorAsString (status.labelSelector)', () => {
  it('sorts requirements by key and values inside in/notin', () => {
    const s: LabelSelector = {
      matchLabels: { b: '2', a: '1' },
      matchExpressions: [
        { key: 'e', operator: 'NotIn', values: ['z', 'y'] },
        { key: 'c', operator: 'In', values: ['y', 'x'] },
        { key: 'd', operator: 'DoesNotExist' },
        { key: 'f', operator: 'Exists' },
      ],
    };
    expect(labelSelectorAsString(s)).toBe('a=1,b=2,c in (x,y),!d,e notin (y,z),f');
  });
  it('nil and empty selectors give ""', () => {
    expect(labelSelectorAsString(undefined)).toBe('');
    expect(labelSelectorAsString({})).toBe('');
    expect(labelSelectorAsRequirements(undefined)).toBeNull();
    expect(labelSelectorAsRequirements({})).toEqual([]);
  });
  it('a single value is printed as is', () => {
    expect(labelSelectorAsString({ matchExpressions: [{ key: 'a', operator: 'In', values: ['x'] }] })).toBe(
      'a in (x)',
    );
  });
  it('throws a KruiseError for an unknown operator', () => {
    expect(() => labelSelectorAsString({ matchExpressions: [{ key: 'a', operator: 'Foo' }] })).toThrow(
      /"Foo" is not a valid label selector operator/,
    );
  });
  it('round-trips through parseSelectorString', () => {
    const s = 'a=1,b=2,c in (x,y),!d,e notin (y,z),f';
    expect(requirementsToString(parseSelectorString(s))).toBe(s);
  });
});

describe('parseSelectorString (labels.Parse)', () => {
  it('parses every operator and sorts by key', () => {
    const reqs = parseSelectorString('z=1, y==2,x!=3,w in (b,a,a),v notin (c),!u,t,s>5,r<7');
    expect(reqs.map((r) => `${r.key}:${r.operator}:${r.values.join('|')}`)).toEqual([
      'r:lt:7',
      's:gt:5',
      't:exists:',
      'u:!:',
      'v:notin:c',
      'w:in:a|b',
      'x:!=:3',
      'y:==:2',
      'z:=:1',
    ]);
  });
  it('empty string and "()" / "a=" give empty values', () => {
    expect(parseSelectorString('')).toEqual([]);
    expect(parseSelectorString('a=')[0].values).toEqual(['']);
    expect(parseSelectorString('a in ()')[0].values).toEqual(['']);
    expect(parseSelectorString('a in (,b)')[0].values).toEqual(['', 'b']);
  });
  it('keywords are plain identifiers in value position: "a in (in,notin)"', () => {
    expect(parseSelectorString('a in (in,notin)')[0].values).toEqual(['in', 'notin']);
    expect(parseSelectorString('in=notin')[0]).toEqual({ key: 'in', operator: '=', values: ['notin'] });
  });
  it.each(['a=b=c', 'a,', ',a', '!a=b', 'a in b', 'a in (b', 'x>a', 'bad key=1', 'a=(b)', '=a', 'a=b c'])(
    'rejects %j',
    (s) => {
      expect(() => parseSelectorString(s)).toThrow(KruiseError);
    },
  );
  it('matchesSelectorString', () => {
    expect(matchesSelectorString('app=web,tier notin (db)', { app: 'web' })).toBe(true);
    expect(matchesSelectorString('app=web,tier notin (db)', { app: 'web', tier: 'db' })).toBe(false);
    expect(matchesSelectorString('n>5', { n: '6' })).toBe(true);
    expect(matchesSelectorString('n>5', { n: 'x' })).toBe(false);
    expect(matchesSelectorString('n<5', {})).toBe(false);
    expect(matchesSelectorString('', { any: 'thing' })).toBe(true);
  });
});

describe('validateLabelSelector (ValidateLabelSelector)', () => {
  it('In/NotIn need values, Exists/DoesNotExist forbid them, unknown operators are invalid', () => {
    const errs = validateLabelSelector(
      {
        matchExpressions: [
          { key: 'a', operator: 'In' },
          { key: 'b', operator: 'Exists', values: ['x'] },
          { key: 'c', operator: 'Gt', values: ['1'] },
        ],
      },
      'spec.selector',
    );
    expect(errs.map((e) => [e.type, e.field])).toEqual([
      ['FieldValueRequired', 'spec.selector.matchExpressions[0].values'],
      ['FieldValueForbidden', 'spec.selector.matchExpressions[1].values'],
      ['FieldValueInvalid', 'spec.selector.matchExpressions[2].operator'],
    ]);
    expect(errs[0].detail).toBe("must be specified when `operator` is 'In' or 'NotIn'");
  });
  it('keys must be qualified names and values label values', () => {
    const errs = validateLabelSelector({ matchLabels: { 'a/b/c': 'ok', good: '-bad' } }, 'spec.selector');
    expect(errs.map((e) => [e.field, e.badValue])).toEqual([
      ['spec.selector.matchLabels', 'a/b/c'],
      ['spec.selector.matchLabels', '-bad'],
    ]);
  });
  it('a valid selector has no errors', () => {
    expect(validateLabelSelector({ matchLabels: { 'app.kubernetes.io/name': 'web' } }, 's')).toEqual([]);
    expect(validateLabelSelector(undefined, 's')).toEqual([]);
  });
});

describe('label key/value syntax', () => {
  it('qualified names', () => {
    expect(isQualifiedName('app.kubernetes.io/name')).toEqual([]);
    expect(isQualifiedName('MyName')).toEqual([]);
    expect(isQualifiedName('/a')).toEqual(['prefix part must be non-empty']);
    expect(isQualifiedName('a/')).toContain('name part must be non-empty');
    expect(isQualifiedName('-a').length).toBe(1);
    expect(isQualifiedName('x'.repeat(64))).toContain('name part must be no more than 63 characters');
    expect(isQualifiedName('Example.com/a')[0]).toMatch(/^prefix part a lowercase RFC 1123 subdomain/);
  });
  it('label values: empty is valid, 64 characters are not', () => {
    expect(isValidLabelValue('')).toEqual([]);
    expect(isValidLabelValue('my_value.1')).toEqual([]);
    expect(isValidLabelValue('a'.repeat(64))).toEqual(['must be no more than 63 characters']);
    expect(isValidLabelValue('a b')[0]).toBe(
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    );
  });
});

describe('node selector terms (required node affinity)', () => {
  const node: Node = { metadata: { name: 'n1', labels: { zone: 'a', cpu: '8' } } };
  it('terms are ORed, expressions ANDed', () => {
    expect(
      matchNodeSelectorTerms(node, [
        { matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] },
        {
          matchExpressions: [
            { key: 'zone', operator: 'In', values: ['a'] },
            { key: 'cpu', operator: 'Gt', values: ['4'] },
          ],
        },
      ]),
    ).toBe(true);
    expect(
      matchNodeSelectorTerms(node, [
        {
          matchExpressions: [
            { key: 'zone', operator: 'In', values: ['a'] },
            { key: 'cpu', operator: 'Lt', values: ['4'] },
          ],
        },
      ]),
    ).toBe(false);
  });
  it('NotIn, Exists, DoesNotExist, Gt/Lt compare integers', () => {
    const m = (key: string, operator: string, values?: string[]) =>
      matchNodeSelectorTerms(node, [{ matchExpressions: [{ key, operator, values }] }]);
    expect(m('zone', 'NotIn', ['b'])).toBe(true);
    expect(m('gpu', 'NotIn', ['x'])).toBe(true);
    expect(m('gpu', 'Exists')).toBe(false);
    expect(m('gpu', 'DoesNotExist')).toBe(true);
    expect(m('cpu', 'Gt', ['10'])).toBe(false);
    expect(m('cpu', 'Lt', ['10'])).toBe(true);
    expect(m('zone', 'Gt', ['1'])).toBe(false);
  });
  it('matchFields on metadata.name (In/NotIn with one value)', () => {
    expect(
      matchNodeSelectorTerms(node, [
        { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] },
      ]),
    ).toBe(true);
    expect(
      matchNodeSelectorTerms(node, [
        { matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['n1'] }] },
      ]),
    ).toBe(false);
    expect(
      matchNodeSelectorTerms(node, [
        { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1', 'n2'] }] },
      ]),
    ).toBe(false);
    expect(
      matchNodeSelectorTerms(node, [{ matchFields: [{ key: 'spec.x', operator: 'In', values: ['n1'] }] }]),
    ).toBe(false);
    expect(
      matchNodeSelectorTerms({ labels: {}, fields: { 'metadata.name': 'n2' } }, [
        { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n2'] }] },
      ]),
    ).toBe(true);
  });
  it('empty terms and invalid requirements match nothing', () => {
    expect(matchNodeSelectorTerms(node, [])).toBe(false);
    expect(matchNodeSelectorTerms(node, [{}])).toBe(false);
    expect(
      matchNodeSelectorTerms(node, [{ matchExpressions: [{ key: 'zone', operator: 'In', values: [] }] }]),
    ).toBe(false);
    expect(
      matchNodeSelectorTerms(node, [{ matchExpressions: [{ key: 'cpu', operator: 'Gt', values: ['x'] }] }]),
    ).toBe(false);
  });
  it('nodeSelector map and the pod-level required affinity', () => {
    expect(matchNodeSelector({ a: '1', b: '2' }, { a: '1' })).toBe(true);
    expect(matchNodeSelector({ a: '1' }, { a: '2' })).toBe(false);
    expect(matchNodeSelector(undefined, {})).toBe(true);
    const pod: Pod = {
      spec: {
        containers: [],
        nodeSelector: { zone: 'a' },
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'cpu', operator: 'Exists' }] }],
            },
          },
        },
      },
    };
    expect(matchesRequiredNodeAffinity(pod, node)).toBe(true);
    expect(matchesRequiredNodeAffinity(pod, { metadata: { name: 'n2', labels: { zone: 'a' } } })).toBe(false);
    expect(matchesRequiredNodeAffinity({ spec: { containers: [] } }, node)).toBe(true);
  });
});

describe('tolerations and taints', () => {
  const taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
  it('Equal (or empty operator) needs equal key, value and (if set) effect', () => {
    expect(tolerationToleratesTaint({ key: 'dedicated', operator: 'Equal', value: 'gpu' }, taint)).toBe(true);
    expect(tolerationToleratesTaint({ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }, taint)).toBe(
      true,
    );
    expect(tolerationToleratesTaint({ key: 'dedicated', value: 'cpu' }, taint)).toBe(false);
    expect(tolerationToleratesTaint({ key: 'dedicated', value: 'gpu', effect: 'NoExecute' }, taint)).toBe(
      false,
    );
  });
  it('Exists matches any value; without a key it matches every key', () => {
    expect(tolerationToleratesTaint({ key: 'dedicated', operator: 'Exists' }, taint)).toBe(true);
    expect(tolerationToleratesTaint({ operator: 'Exists' }, taint)).toBe(true);
    expect(tolerationToleratesTaint({ operator: 'Exists', effect: 'NoExecute' }, taint)).toBe(false);
    expect(tolerationToleratesTaint({ key: 'dedicated', operator: 'Bogus' }, taint)).toBe(false);
  });
  it('tolerationsTolerateTaint and findMatchingUntoleratedTaint', () => {
    expect(tolerationsTolerateTaint([], taint)).toBe(false);
    expect(tolerationsTolerateTaint([{ key: 'x', operator: 'Exists' }, { operator: 'Exists' }], taint)).toBe(
      true,
    );
    const taints = [
      { key: 'a', effect: 'PreferNoSchedule' },
      { key: 'b', effect: 'NoSchedule' },
      { key: 'c', effect: 'NoExecute' },
    ];
    const hard = (t: { effect: string }) => t.effect === 'NoSchedule' || t.effect === 'NoExecute';
    expect(findMatchingUntoleratedTaint(taints, [{ key: 'b', operator: 'Exists' }], hard)?.key).toBe('c');
    expect(findMatchingUntoleratedTaint(taints, [{ operator: 'Exists' }], hard)).toBeUndefined();
    expect(findMatchingUntoleratedTaint(taints, [])?.key).toBe('a');
  });
});
