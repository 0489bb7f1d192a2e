// `kruise-ts serve --max-objects`: the flag is checked (a whole number of at least 1, else exit 2),
// the default quota is 200,000 objects, and past the quota a create is 403 `exceeded quota`.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_MAX_OBJECTS } from '@kruise-ts/sim';
import { describe, expect, it } from 'vitest';
import { type CliIO, startServe } from '../src/index';

const io: CliIO = {
  stdout: () => {},
  stderr: () => {},
  cwd: process.cwd(),
  isTTY: false,
  readFile: () => '',
  writeFile: () => {},
};
const kubeconfig = () => join(mkdtempSync(join(tmpdir(), 'kts-quota-')), 'kubeconfig');
const cm = (name: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default' },
});

describe('kruise-ts serve --max-objects', () => {
  for (const bad of ['0', '1.5', 'x', '-3']) {
    it(`refuses --max-objects ${bad} with exit code 2 and a message naming the flag`, async () => {
      await expect(
        startServe(
          { port: '0', speed: '0', insecureNoAuth: true, kubeconfig: kubeconfig(), maxObjects: bad },
          io,
        ),
      ).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining('--max-objects') });
    });
  }

  it('defaults to 200,000 objects and refuses the create past the quota it is given', async () => {
    expect(DEFAULT_MAX_OBJECTS).toBe(200_000);
    const server = await startServe(
      { port: '0', speed: '0', insecureNoAuth: true, kubeconfig: kubeconfig() },
      io,
    );
    try {
      // far below the default quota, creates go through
      expect(server.simulation.store.create(cm('fits'), 'test').ok).toBe(true);
    } finally {
      await server.close();
    }
    const small = await startServe(
      { port: '0', speed: '0', insecureNoAuth: true, kubeconfig: kubeconfig(), maxObjects: '1' },
      io,
    );
    try {
      const r = await fetch(`${small.url}/api/v1/namespaces/default/configmaps`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(cm('over')),
      });
      expect(r.status).toBe(403);
      expect(await r.json()).toMatchObject({
        reason: 'Forbidden',
        message: expect.stringContaining('configmaps "over" is forbidden: exceeded quota: kruise-ts-serve'),
      });
    } finally {
      await small.close();
    }
  });
});
