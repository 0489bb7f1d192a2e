// validateUnitedDeployment (docs/reference/uniteddeployment.md §1.4, rules 1–7).
import { deepFreeze } from '@kruise-ts/core/testing';
import { describe, expect, it } from 'vitest';
import { type UnitedDeploymentObject, validateUnitedDeployment } from '../src/index';
import { makeUD } from './fixtures';

const v = (ud: UnitedDeploymentObject, old?: UnitedDeploymentObject) =>
  validateUnitedDeployment(deepFreeze(ud), old && deepFreeze(old));
const fields = (ud: UnitedDeploymentObject, old?: UnitedDeploymentObject) =>
  v(ud, old).map((e) => `${e.type}:${e.field}`);

describe('§1.4 validateUnitedDeployment', () => {
  it('a valid UD has no errors', () => {
    expect(v(makeUD({ replicas: 10, subsets: [{ name: 'a', replicas: '40%' }, { name: 'b' }] }))).toEqual([]);
  });
  it('rule 1: exactly one template kind', () => {
    const none = makeUD({ replicas: 1, template: {} });
    expect(fields(none)).toEqual(['FieldValueRequired:spec.template']);
    const two = makeUD({ replicas: 1 });
    const both = {
      ...two,
      spec: {
        ...two.spec,
        template: { ...two.spec.template, cloneSetTemplate: two.spec.template!.statefulSetTemplate },
      },
    };
    expect(fields(both)).toEqual(['FieldValueInvalid:spec.template']);
  });
  it('rule 1: selector required, non-empty, matching the template labels', () => {
    expect(fields(makeUD({ replicas: 1, selector: undefined }))).toEqual([
      'FieldValueRequired:spec.selector',
    ]);
    expect(fields(makeUD({ replicas: 1, selector: {} }))).toEqual(['FieldValueInvalid:spec.selector']);
    expect(fields(makeUD({ replicas: 1, selector: { matchLabels: { app: 'other' } } }))).toEqual([
      'FieldValueInvalid:spec.template.statefulSetTemplate.metadata.labels',
    ]);
  });
  it('rule 2: subset names non-empty, unique DNS-1123 labels; partition keys name subsets', () => {
    const ud = makeUD({
      replicas: 3,
      subsets: [{ name: '' }, { name: 'Zone_A' }, { name: 'b' }, { name: 'b' }],
      updateStrategy: { type: 'Manual', manualUpdate: { partitions: { b: 1, nope: 2 } } },
    });
    expect(fields(ud)).toEqual([
      'FieldValueRequired:spec.topology.subsets[0].name',
      'FieldValueInvalid:spec.topology.subsets[1].name',
      'FieldValueDuplicate:spec.topology.subsets[3].name',
      'FieldValueInvalid:spec.updateStrategy.manualUpdate.partitions',
    ]);
  });
  it('rule 3: replicas and min/max are mutually exclusive', () => {
    expect(
      fields(
        makeUD({
          replicas: 3,
          subsets: [
            { name: 'a', replicas: 1 },
            { name: 'b', minReplicas: 1 },
          ],
        }),
      ),
    ).toEqual(['FieldValueInvalid:spec.topology.subsets']);
  });
  it('rule 4: min/max need spec.replicas and one unbounded subset; min ≤ max; Σmin ≤ Σmax', () => {
    expect(fields(makeUD({ subsets: [{ name: 'a', minReplicas: 1 }, { name: 'b' }] }))).toEqual([
      'FieldValueRequired:spec.replicas',
    ]);
    expect(
      fields(
        makeUD({
          replicas: 4,
          subsets: [
            { name: 'a', minReplicas: 1, maxReplicas: 2 },
            { name: 'b', maxReplicas: 3 },
          ],
        }),
      ),
    ).toEqual(['FieldValueInvalid:spec.topology.subsets']);
    expect(
      fields(
        makeUD({ replicas: 4, subsets: [{ name: 'a', minReplicas: 3, maxReplicas: 2 }, { name: 'b' }] }),
      ),
    ).toEqual(['FieldValueInvalid:spec.topology.subsets[0].minReplicas']);
    // a nil max counts as 1 000 000 in both checks
    expect(
      fields(
        makeUD({
          replicas: 4,
          subsets: [
            { name: 'a', minReplicas: 2_000_000 },
            { name: 'b', maxReplicas: 0 },
          ],
        }),
      ),
    ).toEqual([
      'FieldValueInvalid:spec.topology.subsets[0].minReplicas',
      'FieldValueInvalid:spec.topology.subsets',
    ]);
    expect(
      v(
        makeUD({
          replicas: 4,
          subsets: [
            { name: 'a', minReplicas: 1_000_000 },
            { name: 'b', maxReplicas: 0 },
          ],
        }),
      ),
    ).toEqual([]);
  });
  it('rule 5: with spec.replicas, Σ ≤ replicas; all specified → Σ == replicas', () => {
    expect(
      fields(
        makeUD({
          replicas: 10,
          subsets: [
            { name: 'a', replicas: 6 },
            { name: 'b', replicas: '50%' },
          ],
        }),
      ),
    ).toEqual(['FieldValueInvalid:spec.topology.subsets']);
    expect(
      fields(
        makeUD({
          replicas: 10,
          subsets: [
            { name: 'a', replicas: 4 },
            { name: 'b', replicas: 4 },
          ],
        }),
      ),
    ).toEqual(['FieldValueInvalid:spec.topology.subsets']);
    expect(fields(makeUD({ replicas: 10, subsets: [{ name: 'a', replicas: 'x' }, { name: 'b' }] }))).toEqual([
      'FieldValueInvalid:spec.topology.subsets[0].replicas',
    ]);
  });
  it('rule 6: without spec.replicas every subset sets an integer replicas', () => {
    expect(fields(makeUD({ subsets: [{ name: 'a', replicas: 1 }, { name: 'b' }] }))).toEqual([
      'FieldValueRequired:spec.topology.subsets[1].replicas',
    ]);
    expect(fields(makeUD({ subsets: [{ name: 'a', replicas: '50%' }] }))).toEqual([
      'FieldValueInvalid:spec.topology.subsets[0].replicas',
    ]);
    expect(
      v(
        makeUD({
          subsets: [
            { name: 'a', replicas: 1 },
            { name: 'b', replicas: 2 },
          ],
        }),
      ),
    ).toEqual([]);
  });
  it('rule 7: a subset nodeSelectorTerm and tolerations may not change on update', () => {
    const term = { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] };
    const old = makeUD({ replicas: 2, subsets: [{ name: 'a', nodeSelectorTerm: term }, { name: 'b' }] });
    const changed = makeUD({
      replicas: 2,
      subsets: [
        { name: 'a', nodeSelectorTerm: { matchExpressions: [] } },
        { name: 'b', tolerations: [{ key: 'k', operator: 'Exists' }] },
        { name: 'c' },
      ],
    });
    expect(fields(changed, old)).toEqual([
      'FieldValueForbidden:spec.topology.subsets[0].nodeSelectorTerm',
      'FieldValueForbidden:spec.topology.subsets[1].tolerations',
    ]);
  });
  it('rule 7: template kind-specific immutable fields (StatefulSet serviceName)', () => {
    const old = makeUD({ replicas: 2 }, { templateSpec: { serviceName: 's1' } });
    expect(fields(makeUD({ replicas: 2 }, { templateSpec: { serviceName: 's2' } }), old)).toEqual([
      'FieldValueForbidden:spec.template.statefulSetTemplate.spec',
    ]);
    expect(
      v(makeUD({ replicas: 3 }, { templateSpec: { serviceName: 's1' }, image: 'nginx:2' }), old),
    ).toEqual([]);
  });
  it('other: negative replicas, unknown schedule strategy and update strategy types', () => {
    expect(fields(makeUD({ replicas: -1, subsets: [{ name: 'a', replicas: 0 }] }))).toContain(
      'FieldValueInvalid:spec.replicas',
    );
    const u = makeUD(
      { replicas: 1, updateStrategy: { type: 'Auto' } },
      { scheduleStrategy: { type: 'Magic' } },
    );
    expect(fields(u)).toEqual([
      'FieldValueNotSupported:spec.topology.scheduleStrategy.type',
      'FieldValueNotSupported:spec.updateStrategy.type',
    ]);
  });
});
