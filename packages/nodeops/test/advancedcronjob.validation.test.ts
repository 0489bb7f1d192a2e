import { type AdvancedCronJob, setDefaultsAdvancedCronJob } from '@kruise-ts/api';
import { formatFieldError } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import { describe, expect, it } from 'vitest';
import { validateAdvancedCronJob } from '../src/advancedcronjob/validation';
import { acj, ilpjTemplate } from './fixtures';

const messages = (obj: AdvancedCronJob, old?: AdvancedCronJob, zone?: string) =>
  validateAdvancedCronJob(deepFreeze(obj), old && deepFreeze(old), { defaultTimeZone: zone }).map(
    formatFieldError,
  );
const withIlpj = (ilpjSpec: Record<string, unknown>, extra: Partial<AdvancedCronJob['spec']> = {}) =>
  acj({
    concurrencyPolicy: 'Replace',
    ...extra,
    template: {
      imageListPullJobTemplate: {
        spec: { images: ['nginx'], completionPolicy: { type: 'Always' }, ...ilpjSpec } as never,
      },
    },
  });

describe('AC1.3 / AC1.4 defaults (api setDefaultsAdvancedCronJob)', () => {
  it('AC1.3 concurrencyPolicy Allow, paused false, history limits 3 and 1; no deadline, no zone', () => {
    const d = setDefaultsAdvancedCronJob(deepFreeze(acj()));
    expect(d.spec).toMatchObject({
      concurrencyPolicy: 'Allow',
      paused: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
    });
    expect(d.spec.startingDeadlineSeconds).toBeUndefined();
    expect(d.spec.timeZone).toBeUndefined();
  });
  it('AC1.3 item 3: an imageListPullJobTemplate makes the default Replace', () => {
    expect(
      setDefaultsAdvancedCronJob(deepFreeze(acj({ template: ilpjTemplate() }))).spec.concurrencyPolicy,
    ).toBe('Replace');
  });
  it('AC1.4 template defaults only when completionPolicy.type is empty (quirk)', () => {
    const empty = acj({ template: { imageListPullJobTemplate: { spec: { images: ['a'] } } } });
    expect(
      setDefaultsAdvancedCronJob(deepFreeze(empty)).spec.template.imageListPullJobTemplate?.spec,
    ).toEqual({
      images: ['a'],
      completionPolicy: { type: 'Always' },
      pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 },
      imagePullPolicy: 'IfNotPresent',
    });
    const named = acj({ template: ilpjTemplate(['a']) });
    expect(
      setDefaultsAdvancedCronJob(deepFreeze(named)).spec.template.imageListPullJobTemplate?.spec,
    ).toEqual({ images: ['a'], completionPolicy: { type: 'Always' } });
  });
});

describe('AC2.2 CREATE', () => {
  it('a valid ACJ passes', () => expect(messages(acj())).toEqual([]));
  it('item 1: the name must match ^[a-zA-Z0-9\\-]+$ and be at most 63 characters; a namespace is required', () => {
    expect(messages(acj({}, undefined, 'a.b'))).toEqual([
      `metadata.name: Invalid value: "a.b": AdvancedCronJob name must consist of alphanumeric characters or '-' (e.g. 'example-com', regex used for validation is '^[a-zA-Z0-9\\-]+$')`,
    ]);
    expect(messages(acj({}, undefined, 'a'.repeat(64)))).toEqual([
      `metadata.name: Invalid value: "${'a'.repeat(64)}": must be no more than 63 characters`,
    ]);
    const noNs = acj();
    noNs.metadata.namespace = undefined;
    expect(messages(noNs)).toEqual(['metadata.namespace: Required value']);
  });
  it('item 2: an empty schedule gets two errors', () => {
    expect(messages(acj({ schedule: '' }))).toEqual([
      'spec.schedule: Invalid value: "": schedule cannot be empty, please provide valid cron schedule.',
      'spec.schedule: Invalid value: "": empty spec string',
    ]);
  });
  it("item 2: the parser's error text is the detail", () => {
    expect(messages(acj({ schedule: '0 0 * * 7' }))).toEqual([
      'spec.schedule: Invalid value: "0 0 * * 7": end of range (7) above maximum (6): 7',
    ]);
  });
  it('item 2: a parser crash is reported as invalid cron schedule', () => {
    expect(messages(acj({ schedule: 'TZ=UTC' }))).toEqual([
      'spec.schedule: Invalid value: "TZ=UTC": invalid cron schedule: runtime error: slice bounds out of range [:-1]',
    ]);
  });
  it('item 2: TZ in the schedule together with timeZone is rejected', () => {
    expect(messages(acj({ schedule: 'TZ=UTC 0 * * * *', timeZone: 'UTC' }))).toEqual([
      'spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use both timeZone field and TZ or CRON_TZ in schedule',
    ]);
  });
  it('item 2: the schedule is parsed without timeZone', () => {
    expect(messages(acj({ schedule: '0 10 * * *', timeZone: 'Asia/Shanghai' }))).toEqual([]);
  });
  it('item 3: pod template errors are reported under spec.template (quirk)', () => {
    const bad = acj({ template: { jobTemplate: { spec: { template: { spec: { containers: [] } } } } } });
    expect(messages(bad)).toEqual(['spec.template.spec.containers: Required value']);
    const bj = acj({
      template: { broadcastJobTemplate: { spec: { template: { spec: { containers: [] } } } } },
    });
    expect(messages(bj)).toEqual(['spec.template.spec.containers: Required value']);
  });
  it("item 3: a Job template's restartPolicy is not checked", () => {
    const always = acj({
      template: {
        jobTemplate: {
          spec: { template: { spec: { restartPolicy: 'Always', containers: [{ name: 'c', image: 'x' }] } } },
        },
      },
    });
    expect(messages(always)).toEqual([]);
  });
  it('item 3: imageListPullJobTemplate needs concurrencyPolicy Replace or Forbid (path spec.spec.concurrencyPolicy)', () => {
    expect(messages(withIlpj({}, { concurrencyPolicy: 'Allow' }))).toEqual([
      'spec.spec.concurrencyPolicy: Invalid value: "Allow": concurrencyPolicy should be Replace or Forbid, but current value is: Allow',
    ]);
    expect(messages(withIlpj({}, { concurrencyPolicy: 'Forbid' }))).toEqual([]);
  });
  it('item 3: zero templates and more than one template are forbidden', () => {
    expect(messages(acj({ template: {} }))).toEqual([
      'spec.template: Forbidden: spec must have one template, either JobTemplate or BroadcastJobTemplate or ImageListPullJobTemplate should be provided',
    ]);
    const two = acj();
    two.spec.template = { ...two.spec.template, ...ilpjTemplate() };
    expect(messages({ ...two, spec: { ...two.spec, concurrencyPolicy: 'Replace' } })).toEqual([
      'spec.template: Forbidden: spec can have only one template, either JobTemplate or BroadcastJobTemplate or ImageListPullJobTemplate should be provided',
    ]);
  });
  it('item 4: startingDeadlineSeconds and the history limits must be ≥ 0', () => {
    expect(
      messages(
        acj({ startingDeadlineSeconds: -1, successfulJobsHistoryLimit: -1, failedJobsHistoryLimit: -2 }),
      ),
    ).toEqual([
      'spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0',
      'spec.successfulJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0',
      'spec.failedJobsHistoryLimit: Invalid value: -2: must be greater than or equal to 0',
    ]);
  });
  it('item 5: timeZone "" / Local / local / unknown', () => {
    expect(messages(acj({ timeZone: '' }))).toEqual([
      'spec.timeZone: Invalid value: "": timeZone must be nil or non-empty string',
    ]);
    expect(messages(acj({ timeZone: 'Local' }))).toEqual([
      'spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
    ]);
    expect(messages(acj({ timeZone: 'local' }))).toHaveLength(2);
    expect(messages(acj({ timeZone: 'Nope/Zone' }))).toEqual([
      'spec.timeZone: Invalid value: "Nope/Zone": unknown time zone Nope/Zone',
    ]);
    expect(messages(acj({ timeZone: 'UTC' }))).toEqual([]);
  });
});

describe('AC2.3 imageListPullJobTemplate checks (first failure only)', () => {
  const P = 'spec.template.imageListPullJobTemplate.spec';
  it('1: names with a label selector; duplicate names', () => {
    expect(messages(withIlpj({ selector: { names: ['a'], matchLabels: {} } }))[0]).toMatch(
      /can not set both names and labelSelector in this spec.selector$/,
    );
    expect(messages(withIlpj({ selector: { names: ['a', 'a'] } }))[0]).toMatch(
      /duplicated name in selector names$/,
    );
  });
  it('2: podSelector with selector', () => {
    expect(
      messages(withIlpj({ selector: { names: ['a'] }, podSelector: { matchLabels: { a: 'b' } } }))[0],
    ).toMatch(/can not set both selector and podSelector$/);
  });
  it('3: images empty / > 255 / duplicated / unparsable', () => {
    expect(messages(withIlpj({ images: [] }))).toEqual([
      `${P}.images: Required value: image can not be empty`,
    ]);
    expect(messages(withIlpj({ images: Array.from({ length: 256 }, (_, i) => `i${i}`) }))[0]).toMatch(
      /the maximum number of images cannot > 255$/,
    );
    expect(messages(withIlpj({ images: ['a', 'a'] }))[0]).toMatch(/images cannot have duplicate values$/);
    expect(messages(withIlpj({ images: ['A'] }))[0]).toMatch(/invalid image A: /);
  });
  it('4: completionPolicy must be Always', () => {
    expect(messages(withIlpj({ completionPolicy: { type: 'Never' } }))).toEqual([
      `${P}.completionPolicy.type: Invalid value: "Never": completionPolicy should be Always, but current value is: Never`,
    ]);
  });
  it('4: activeDeadlineSeconds ≤ 86400 (86400 itself passes)', () => {
    expect(
      messages(withIlpj({ completionPolicy: { type: 'Always', activeDeadlineSeconds: 86401 } }))[0],
    ).toMatch(/must be less than 86400$/);
    expect(
      messages(withIlpj({ completionPolicy: { type: 'Always', activeDeadlineSeconds: 86400 } })),
    ).toEqual([]);
  });
  it('4: timeoutSeconds ≤ activeDeadlineSeconds when both are set', () => {
    expect(
      messages(
        withIlpj({
          completionPolicy: { type: 'Always', activeDeadlineSeconds: 100 },
          pullPolicy: { timeoutSeconds: 101 },
        }),
      ),
    ).toHaveLength(1);
    expect(
      messages(
        withIlpj({
          completionPolicy: { type: 'Always', activeDeadlineSeconds: 100 },
          pullPolicy: { timeoutSeconds: 100 },
        }),
      ),
    ).toEqual([]);
  });
  it('4: ttlSecondsAfterFinished is not supported', () => {
    expect(
      messages(withIlpj({ completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 5 } }))[0],
    ).toMatch(/ttlSecondsAfterFinished is not supported in advancedCronJob$/);
  });
  it('stops at the first failure', () => {
    expect(messages(withIlpj({ images: [], completionPolicy: { type: 'Never' } }))).toHaveLength(1);
  });
});

describe('AC2.4 UPDATE', () => {
  const old = acj({
    concurrencyPolicy: 'Allow',
    successfulJobsHistoryLimit: 3,
    failedJobsHistoryLimit: 1,
    paused: false,
  });
  it('the mutable fields may change', () => {
    const next = acj({
      schedule: '0 * * * *',
      concurrencyPolicy: 'Forbid',
      successfulJobsHistoryLimit: 1,
      failedJobsHistoryLimit: 0,
      startingDeadlineSeconds: 30,
      paused: true,
      timeZone: 'UTC',
    });
    expect(messages(next, old)).toEqual([]);
  });
  it('jobTemplate is frozen', () => {
    const next = acj({
      template: {
        jobTemplate: {
          spec: {
            template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'other' }] } },
          },
        },
      },
    });
    expect(messages(next, old)).toEqual([
      "spec: Forbidden: updates to advancedcronjob spec for fields other than 'imageListPullJobTemplate', 'schedule', 'concurrencyPolicy', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit', 'startingDeadlineSeconds', 'timeZone' and 'paused' are forbidden",
    ]);
  });
  it('an existing imageListPullJobTemplate may be edited; the name rule is not checked again', () => {
    const o = withIlpj({ images: ['a'] });
    o.metadata.name = 'a.b';
    const n = withIlpj({ images: ['a', 'b'] });
    n.metadata.name = 'a.b';
    expect(messages(n, o)).toEqual([]);
  });
  it('the kind cannot change (adding an imageListPullJobTemplate to a Job ACJ)', () => {
    const n = withIlpj({});
    expect(messages(n, old).some((m) => m.startsWith('spec: Forbidden'))).toBe(true);
  });
  it('items 2–5 are checked on the new object; name and namespace are immutable', () => {
    expect(messages(acj({ schedule: 'bad' }), old)[0]).toMatch(/^spec.schedule: Invalid value/);
    expect(messages(acj({}, undefined, 'other'), old)[0]).toMatch(
      /^metadata.name: Invalid value: "other": field is immutable/,
    );
  });
});
