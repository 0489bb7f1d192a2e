// deploy/webhooks.yaml must be exactly what scripts/gen-webhooks.ts writes from
// src/webhook/configurations.ts (the tables the operator serves and patches at run time), so the
// manifest and the operator cannot drift. Regenerate with
// `npx tsx --conditions=@kruise-ts/source packages/operator/scripts/gen-webhooks.ts`.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderWebhooksYaml, toYaml, WEBHOOKS_YAML } from '../scripts/gen-webhooks';
import { unservedEntries, validatingEntries } from '../src/index';

describe('deploy/webhooks.yaml (scripts/gen-webhooks.ts)', () => {
  it('the committed manifest equals what the script generates (run the script after changing configurations.ts)', () => {
    expect(readFileSync(WEBHOOKS_YAML, 'utf8')).toBe(renderWebhooksYaml());
  });
  it('lists every served validating entry and none of the unserved paths as a clientConfig path', () => {
    const text = renderWebhooksYaml();
    for (const e of validatingEntries) expect(text).toContain(`  - name: ${e.name}\n`);
    for (const e of unservedEntries) expect(text).not.toContain(`path: ${e.path}\n`);
  });
  it('YAML scalars: words stay plain; "", "*", booleans and numbers as strings are quoted', () => {
    expect(toYaml({ a: '', b: '*', c: 'true', d: '443', e: 'kube-system', f: 30, g: [], h: {} })).toBe(
      'a: ""\nb: "*"\nc: "true"\nd: "443"\ne: kube-system\nf: 30\ng: []\nh: {}\n',
    );
  });
  it('YAML blocks: sequences are indented under their key, a map in a sequence starts on the dash line', () => {
    expect(toYaml({ webhooks: [{ name: 'x', rules: [{ apiGroups: [''] }] }] })).toBe(
      'webhooks:\n  - name: x\n    rules:\n      - apiGroups:\n          - ""\n',
    );
  });
});
