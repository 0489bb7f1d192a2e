import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  attemptTimeoutMs,
  backoffDelayMs,
  backoffStepMs,
  planPoolSync,
  stopTimeoutSeconds,
  takeToken,
} from '../src/index';

describe('daemon invariants (properties)', () => {
  it('§7.5: the pull backoff never decreases and stays within [1 s, 30 s]', () => {
    fc.assert(
      fc.property(fc.nat(60), (i) => {
        const a = backoffStepMs(i);
        const b = backoffStepMs(i + 1);
        return a >= 1_000 && a <= 30_000 && b >= a;
      }),
    );
  });

  it('§7.5 item 2.2: an attempt never outlives the tag timeout nor the deadline', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e6 }),
        fc.integer({ min: 0, max: 1e6 }),
        fc.integer({ min: 0, max: 2e6 }),
        (timeoutMs, deadlineMs, now) => {
          const t = attemptTimeoutMs({ timeoutMs, backoffLimit: 0, deadlineMs }, now);
          return t === undefined ? now > deadlineMs : t <= timeoutMs && now + t <= deadlineMs;
        },
      ),
    );
  });

  it('§7.4: after a pool sync every active tag has exactly one worker of the spec version, and no other worker survives', () => {
    const tagArb = fc.constantFrom('v1', 'v2', 'v3', 'v4');
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ tag: tagArb, version: fc.nat(3) }), { selector: (t) => t.tag }),
        fc.array(fc.record({ tag: tagArb, version: fc.nat(3), done: fc.boolean() })),
        fc.uniqueArray(fc.record({ tag: tagArb, version: fc.nat(3) }), { selector: (t) => t.tag }),
        (specTags, statusTags, running) => {
          const status = {
            tags: statusTags.map((s) => ({
              tag: s.tag,
              version: s.version,
              phase: 'Pulling' as const,
              completionTime: s.done ? 'x' : undefined,
            })),
          };
          const plan = planPoolSync({ tags: specTags }, status, running, []);
          const after: { tag: string; version?: number }[] = [
            ...running.filter((w) => !plan.stop.includes(w.tag)),
            ...plan.start.map((t) => ({ tag: t.tag, version: t.version })),
          ];
          expect(after.map((w) => w.tag).sort()).toEqual(plan.active.map((t) => t.tag).sort());
          for (const w of after) expect(w.version).toBe(specTags.find((t) => t.tag === w.tag)?.version);
          expect(plan.active.length + plan.finished.length).toBe(specTags.length);
        },
      ),
    );
  });

  it('§7.3 item 3.2: the status writer never exceeds burst + rate × elapsed writes', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(3_000), { minLength: 1, maxLength: 60 }), (gaps) => {
        let bucket: Parameters<typeof takeToken>[0];
        let now = 0;
        let writes = 0;
        for (const g of gaps) {
          now += g;
          const r = takeToken(bucket, now, 0.5, 5);
          bucket = r.bucket;
          if (r.ok) writes++;
        }
        return writes <= 5 + (now / 1000) * 0.5;
      }),
    );
  });

  it('§9.4: the stop timeout is at least 2 s and never more than the grace period (when that is ≥ 2)', () => {
    fc.assert(
      fc.property(fc.nat(3_600), fc.option(fc.nat(4_000_000), { nil: undefined }), (grace, elapsed) => {
        const t = stopTimeoutSeconds(grace, elapsed);
        return t >= 2 && (grace < 2 || t <= grace);
      }),
    );
  });

  it('§7.2 / §9.2: queue backoff is monotone and capped at 55 s', () => {
    fc.assert(
      fc.property(fc.nat(100), fc.double({ min: 0, max: 0.999999, noNaN: true }), (n, u) => {
        const a = backoffDelayMs(n, u);
        return a >= 500 && a <= 55_000 && backoffDelayMs(n + 1, u) >= a;
      }),
    );
  });
});
