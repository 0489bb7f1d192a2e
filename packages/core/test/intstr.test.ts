import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  calculatePartitionReplicas,
  KruiseError,
  kruiseScaledValueFromIntOrPercent,
  legacyValueFromIntOrPercent,
  parseGoInt,
  parsePercentageAsFloat64,
  scaledValueFromIntOrPercent,
  tryCalculatePartitionReplicas,
} from '@kruise-ts/core';
import { describe, expect, it } from 'vitest';
import { getIntOrPercentValueSafely, parseGoFloat, parseIntOrString } from '../src/kube/intstr';

function load(area: string, file: string): any {
  return JSON.parse(
    readFileSync(
      fileURLToPath(new URL(`../../../testdata/upstream/${area}/${file}`, import.meta.url)),
      'utf8',
    ),
  );
}

/** core/ encodes int-or-string as {type, value}. */
function ios(v: { type: 'int' | 'string'; value: number | string } | null): number | string | null {
  return v === null ? null : v.value;
}

describe('§6.1 (a) Kubernetes scaled helper', () => {
  it('int is returned as is', () => {
    expect(scaledValueFromIntOrPercent(3, 95, true)).toBe(3);
  });
  it('percent rounds up or down: "90%" of 95 → 86 / 85', () => {
    expect(scaledValueFromIntOrPercent('90%', 95, true)).toBe(86);
    expect(scaledValueFromIntOrPercent('90%', 95, false)).toBe(85);
  });
  it.each(['90', '90#', '%', '1.5%', '40%%', '30%0', '', ' 5%', '5 %', '1_0%', '0x10%'])(
    'rejects %j with a KruiseError naming the value',
    (v) => {
      expect(() => scaledValueFromIntOrPercent(v, 10, true)).toThrow(KruiseError);
    },
  );
  it('null is an error', () => {
    expect(() => scaledValueFromIntOrPercent(null, 10, true)).toThrow(KruiseError);
  });
  it('the error message names the value', () => {
    expect(() => scaledValueFromIntOrPercent('90#', 10, true)).toThrow(/"90#"/);
  });
  it('accepts Go integer syntax with a sign: "+5%" → 5% and "-10%" of 10 → -1', () => {
    expect(scaledValueFromIntOrPercent('+50%', 10, true)).toBe(5);
    expect(scaledValueFromIntOrPercent('-10%', 10, true)).toBe(-1);
  });
  it('rejects non-int32 numbers', () => {
    expect(() => scaledValueFromIntOrPercent(1.5, 10, true)).toThrow(KruiseError);
    expect(() => scaledValueFromIntOrPercent(2 ** 31, 10, true)).toThrow(KruiseError);
  });
});

describe('§6.1 (b) Kubernetes legacy helper', () => {
  it('removes every % and treats the number as a percentage: "5" means 5 %', () => {
    expect(legacyValueFromIntOrPercent('5', 100, true)).toBe(5);
    expect(legacyValueFromIntOrPercent('5', 10, true)).toBe(1);
    expect(legacyValueFromIntOrPercent('5', 10, false)).toBe(0);
    expect(legacyValueFromIntOrPercent('40%%', 10, false)).toBe(4);
    expect(legacyValueFromIntOrPercent('%2%0', 10, false)).toBe(2);
  });
  it('§6.2 example: CloneSet 10 replicas, maxUnavailable "25%" → 3 without surge, 2 with surge', () => {
    expect(legacyValueFromIntOrPercent('25%', 10, true)).toBe(3);
    expect(legacyValueFromIntOrPercent('25%', 10, false)).toBe(2);
  });
  it('docs/reference/cloneset.md §5.1 examples with R=5', () => {
    expect(legacyValueFromIntOrPercent('20%', 5, true)).toBe(1);
    expect(legacyValueFromIntOrPercent('30%', 5, true)).toBe(2);
    expect(legacyValueFromIntOrPercent('30%', 5, false)).toBe(1);
    expect(legacyValueFromIntOrPercent('40%', 5, true)).toBe(2);
    expect(legacyValueFromIntOrPercent('40%', 5, false)).toBe(2);
  });
  it('int is returned as is', () => {
    expect(legacyValueFromIntOrPercent(7, 10, true)).toBe(7);
  });
  it('§6.2 quirk: the ASTS pre-download default, the string "1", means 1 % (10 replicas, down → 0)', () => {
    expect(legacyValueFromIntOrPercent('1', 10, false)).toBe(0);
    expect(legacyValueFromIntOrPercent('1', 200, false)).toBe(2);
  });
  it.each(['a', '1.5%', '', '%', '1e1%'])('rejects %j', (v) => {
    expect(() => legacyValueFromIntOrPercent(v, 10, true)).toThrow(KruiseError);
  });
});

describe('§6.1 (c) Kruise float helper', () => {
  it('fractional percentages: "0.01%" of 95 → 1, "99.99%" of 999 → 999', () => {
    expect(kruiseScaledValueFromIntOrPercent('0.01%', 95, true)).toBe(1);
    expect(kruiseScaledValueFromIntOrPercent('99.99%', 999, true)).toBe(999);
  });
  it('accepts Go float syntax: exponents, leading dot, underscores between digits, hex floats', () => {
    expect(kruiseScaledValueFromIntOrPercent('1e1%', 100, true)).toBe(10);
    expect(kruiseScaledValueFromIntOrPercent('.5%', 1000, true)).toBe(5);
    expect(kruiseScaledValueFromIntOrPercent('5.%', 100, true)).toBe(5);
    expect(kruiseScaledValueFromIntOrPercent('1_0%', 100, true)).toBe(10);
    expect(kruiseScaledValueFromIntOrPercent('0x1p4%', 100, true)).toBe(16);
  });
  it.each(['90', '90#', '', '%', '1_%', '_1%', '0x10%', 'Inf%', 'NaN%', '1e400%', ' 5%', '1e%', '.%'])(
    'rejects %j (JavaScript Number/parseFloat would accept some of these)',
    (v) => {
      expect(() => kruiseScaledValueFromIntOrPercent(v, 10, true)).toThrow(KruiseError);
    },
  );
  it('parsePercentageAsFloat64 gives the fraction', () => {
    expect(parsePercentageAsFloat64('50%')).toBeCloseTo(0.5, 9);
    expect(() => parsePercentageAsFloat64('100')).toThrow(KruiseError);
  });
});

describe('§6.1 partition (CloneSet)', () => {
  it('worked examples: ("99%", 9) → 8, ("0.01%", 9) → 1, ("99.99%", 999) → 998', () => {
    expect(calculatePartitionReplicas('99%', 9)).toBe(8);
    expect(calculatePartitionReplicas('0.01%', 9)).toBe(1);
    expect(calculatePartitionReplicas('99.99%', 999)).toBe(998);
  });
  it('null partition → 0; null replicas counts as 1', () => {
    expect(calculatePartitionReplicas(null, 10)).toBe(0);
    expect(calculatePartitionReplicas(undefined, 10)).toBe(0);
    expect(calculatePartitionReplicas('100%', null)).toBe(1);
  });
  it('"100%" is not corrected; ints are clamped to [0, replicas] (10 with R=3 → 3)', () => {
    expect(calculatePartitionReplicas('100%', 99)).toBe(99);
    expect(calculatePartitionReplicas(10, 3)).toBe(3);
    expect(calculatePartitionReplicas(-2, 3)).toBe(0);
  });
  it('an int equal to replicas is not corrected (only strings are)', () => {
    expect(calculatePartitionReplicas(5, 5)).toBe(5);
  });
  it('error → throws; the non-throwing variant returns 0 with the error', () => {
    expect(() => calculatePartitionReplicas('99', 9)).toThrow(KruiseError);
    const r = tryCalculatePartitionReplicas('99', 9);
    expect(r.value).toBe(0);
    expect(r.error).toMatch(/"99"/);
  });
});

describe('parseIntOrString (intstr.Parse) and Go integer parsing', () => {
  it('int32 range only', () => {
    expect(parseIntOrString('2147483647')).toBe(2147483647);
    expect(parseIntOrString('2147483648')).toBe('2147483648');
    expect(parseIntOrString('+5')).toBe(5);
    expect(parseIntOrString('20%')).toBe('20%');
    expect(parseIntOrString('')).toBe('');
  });
  it('parseGoInt / parseGoFloat reject what JavaScript accepts', () => {
    expect(parseGoInt('')).toBeUndefined();
    expect(parseGoInt(' 1')).toBeUndefined();
    expect(parseGoInt('1e3')).toBeUndefined();
    expect(parseGoFloat('')).toBeUndefined();
    expect(parseGoFloat('90#')).toBeUndefined();
    expect(parseGoFloat('0x10')).toBeUndefined();
    expect(parseGoFloat('1_000.5')).toBe(1000.5);
  });
});

describe('§6.2 image-predownload-min-updated-ready-pods annotation', () => {
  it('an int32 string is an int, anything else a string, then scaled (a) rounding up', () => {
    expect(scaledValueFromIntOrPercent(parseIntOrString('3'), 10, true)).toBe(3);
    expect(scaledValueFromIntOrPercent(parseIntOrString('25%'), 10, true)).toBe(3);
    expect(() => scaledValueFromIntOrPercent(parseIntOrString('abc'), 10, true)).toThrow(KruiseError);
  });
});

describe('upstream core/k8s_intstr.json', () => {
  const file = load('core', 'k8s_intstr.json');
  for (const c of file.cases) {
    it(c.id, () => {
      if (c.function === 'getIntOrPercentValueSafely') {
        const r = getIntOrPercentValueSafely(ios(c.input.intOrString));
        expect(r.error !== undefined).toBe(c.expected.error);
        expect(r.value).toBe(c.expected.value);
        expect(r.isPercent).toBe(c.expected.isPercent);
      } else if (c.function === 'k8sGetScaledValueFromIntOrPercent') {
        const call = () =>
          scaledValueFromIntOrPercent(ios(c.input.intOrPercent), c.input.total, c.input.roundUp);
        if (c.expected.error) expect(call).toThrow(KruiseError);
        else expect(call()).toBe(c.expected.value);
      } else if (c.function === 'parseIntOrString') {
        expect(parseIntOrString(c.input.value)).toBe(c.expected.intOrString.value);
        expect(typeof parseIntOrString(c.input.value)).toBe(
          c.expected.intOrString.type === 'int' ? 'number' : 'string',
        );
      } else {
        throw new Error(`unknown function ${c.function}`);
      }
    });
  }
});

describe('upstream core/intstr_partition.json', () => {
  const file = load('core', 'intstr_partition.json');
  for (const c of file.cases) {
    it(c.id, () => {
      if (c.function === 'calculatePartitionReplicas') {
        const r = tryCalculatePartitionReplicas(ios(c.input.partition), c.input.replicas);
        expect(r.value).toBe(c.expected.value);
        expect(r.error !== undefined).toBe(c.expected.error);
      } else if (c.function === 'kruiseGetScaledValueFromIntOrPercent') {
        const call = () =>
          kruiseScaledValueFromIntOrPercent(ios(c.input.intOrPercent), c.input.total, c.input.roundUp);
        if (c.expected.error) expect(call).toThrow(KruiseError);
        else expect(call()).toBe(c.expected.value);
      } else if (c.function === 'parsePercentageAsFloat64') {
        if (c.expected.error) expect(() => parsePercentageAsFloat64(c.input.value)).toThrow(KruiseError);
        else expect(Math.abs(parsePercentageAsFloat64(c.input.value) - c.expected.value)).toBeLessThan(1e-9);
      } else {
        throw new Error(`unknown function ${c.function}`);
      }
    });
  }
});

describe('upstream cloneset/partition.json', () => {
  const file = load('cloneset', 'partition.json');
  for (const c of file.cases) {
    it(`${c.id} (${c.goCase})`, () => {
      if (c.kind === 'partitionReplicas') {
        const r = tryCalculatePartitionReplicas(c.partition, c.replicas);
        expect(r.value).toBe(c.expected.value);
        expect(r.error !== undefined).toBe(c.expected.error);
      } else {
        const call = () => kruiseScaledValueFromIntOrPercent(c.input, c.total, c.roundUp);
        if (c.expected.error) expect(call).toThrow(KruiseError);
        else expect(call()).toBe(c.expected.value);
      }
    });
  }
});
