// `kruise-ts serve` measured against the real kube-apiserver: the same kubectl steps, with the same
// kubectl (1.33), against both servers in the same state (the CRDs installed, no controller and no
// webhook running: serve with `--controllers none`, and a control plane of this file's own with
// only the CRDs applied), and their transcripts compared step by step
// after masking what changes from run to run (times, uids, resourceVersions, ports). Each step the
// servers answer differently must be listed in KNOWN_DIFFERENCES with its reason (the simulator
// README's "What still differs" says the same); a listed step they now answer alike fails too, so
// the list never outlives the difference.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ControlPlane,
  installCrds,
  kubectlPath,
  startControlPlane,
} from '../../../scripts/real-cluster/controlPlane.mjs';
import { type ApiServer, startCluster } from '../test/helpers/cluster';
import { realCluster } from './helpers/harness';

/** One step: what the user types, as kubectl arguments; `{dir}` is the step files' folder. */
interface DiffStep {
  id: string;
  args: string[];
}

/** Step id → why serve answers differently from kube-apiserver there. */
const KNOWN_DIFFERENCES: Record<string, string> = {
  'create-namespace-imperative':
    '`kubectl create namespace` (like `create configmap`) sends a protobuf body, which serve does not decode: it answers 415',
};

const CLONESET = `apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata:
  name: sample
  labels: {app: sample}
spec:
  replicas: 5
  selector: {matchLabels: {app: sample}}
  template:
    metadata: {labels: {app: sample}}
    spec:
      containers:
      - {name: nginx, image: "nginx:alpine"}
`;

const FILES: Record<string, string> = {
  'cloneset.yaml': CLONESET,
  'replicas-7.yaml': CLONESET.replace('replicas: 5', 'replicas: 7'),
  'bad-type.yaml': CLONESET.replace('name: sample', 'name: bad').replace('replicas: 5', 'replicas: "five"'),
  'bad-field.yaml': CLONESET.replace('name: sample', 'name: typo').replace(
    'replicas: 5',
    'replicas: 5\n  replcas: 2',
  ),
  'stale.yaml': CLONESET.replace('name: sample', 'name: sample\n  resourceVersion: "1"'),
  'namespace.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata: {name: differential}\n',
};

const STEPS: DiffStep[] = [
  { id: 'create-namespace', args: ['create', '-f', '{dir}/namespace.yaml'] },
  { id: 'create-namespace-imperative', args: ['create', 'namespace', 'imperative'] },
  { id: 'create', args: ['create', '-f', '{dir}/cloneset.yaml'] },
  { id: 'create-again', args: ['create', '-f', '{dir}/cloneset.yaml'] },
  { id: 'get', args: ['get', 'clone', 'sample'] },
  { id: 'get-wide', args: ['get', 'clone', 'sample', '-o', 'wide'] },
  { id: 'get-missing', args: ['get', 'clone', 'missing'] },
  { id: 'get-pods-none', args: ['get', 'pods'] },
  { id: 'create-wrong-type', args: ['create', '-f', '{dir}/bad-type.yaml'] },
  { id: 'create-unknown-field-strict', args: ['create', '--validate=strict', '-f', '{dir}/bad-field.yaml'] },
  { id: 'scale', args: ['scale', 'clone', 'sample', '--replicas=3'] },
  { id: 'jsonpath-replicas', args: ['get', 'clone', 'sample', '-o', 'jsonpath={.spec.replicas}'] },
  { id: 'replace-stale', args: ['replace', '-f', '{dir}/stale.yaml'] },
  { id: 'delete-dry-run', args: ['delete', 'clone', 'sample', '--dry-run=server'] },
  { id: 'still-there', args: ['get', 'clone', 'sample', '-o', 'name'] },
  { id: 'apply-server-side', args: ['apply', '--server-side', '-f', '{dir}/cloneset.yaml'] },
  {
    id: 'apply-conflict',
    args: ['apply', '--server-side', '--field-manager=other', '-f', '{dir}/replicas-7.yaml'],
  },
  {
    id: 'apply-force',
    args: [
      'apply',
      '--server-side',
      '--field-manager=other',
      '--force-conflicts',
      '-f',
      '{dir}/replicas-7.yaml',
    ],
  },
  { id: 'explain', args: ['explain', 'clone.spec.replicas'] },
  { id: 'can-i', args: ['auth', 'can-i', 'create', 'clonesets.apps.kruise.io'] },
  { id: 'delete', args: ['delete', 'clone', 'sample'] },
  { id: 'gone', args: ['get', 'clone', 'sample'] },
];

const MASKS: [RegExp, string][] = [
  [/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>'],
  [/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uid>'],
  [/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>'],
  [/\b\d+(s|m\d*s?|h\d*m?|d)\b/g, '<age>'],
  [/[ \t]+$/gm, ''],
];
const mask = (text: string) => MASKS.reduce((t, [re, to]) => t.replace(re, to), text);

/**
 * Runs the steps against the server of `kubeconfig`, in namespace `ns`; one text per step.
 * kubectl runs as a child process without blocking this one: serve answers from this process.
 */
async function transcript(kubeconfig: string, ns: string, work: string): Promise<Map<string, string>> {
  const dir = mkdtempSync(join(work, 'steps-'));
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, name), text);
  const run = (args: string[]) =>
    new Promise<{ text: string; code: number }>((resolve) => {
      execFile(
        kubectlPath(),
        [`--kubeconfig=${kubeconfig}`, `--cache-dir=${join(dir, 'cache')}`, `--namespace=${ns}`, ...args],
        { encoding: 'utf8', timeout: 30_000, env: { ...process.env, HOME: dir } },
        (err, stdout, stderr) => {
          const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
          resolve({ text: `${stdout}${stderr}`, code });
        },
      );
    });
  const out = new Map<string, string>();
  for (const step of STEPS) {
    const r = await run(step.args.map((a) => a.replaceAll('{dir}', dir)));
    const text = r.text.replaceAll(dir, '<dir>');
    out.set(step.id, mask(`${text.replace(/\n?$/, '\n')}[exit ${r.code}]`));
  }
  return out;
}

const rc = realCluster('serve measured against a real kube-apiserver');
if (rc) {
  let serve: ApiServer;
  let cp: ControlPlane;
  const work = mkdtempSync(join(tmpdir(), 'kruise-ts-differential-'));
  beforeAll(async () => {
    serve = await startCluster(0);
    cp = await startControlPlane({ dir: join(work, 'control-plane') });
    installCrds(cp.kubeconfigPath, join(work, 'crd-cache'));
  });
  afterAll(async () => {
    await serve?.close();
    await cp?.stop();
  });

  describe(`kubectl against serve and against ${rc.version}`, () => {
    it('answers every step alike, except the listed differences', async () => {
      const real = await transcript(cp.kubeconfigPath, 'differential', work);
      const simulated = await transcript(serve.kubeconfigPath, 'differential', work);
      const differing: string[] = [];
      const report: string[] = [];
      for (const step of STEPS) {
        const a = real.get(step.id) ?? '';
        const b = simulated.get(step.id) ?? '';
        if (a === b) continue;
        differing.push(step.id);
        if (!(step.id in KNOWN_DIFFERENCES))
          report.push(`--- ${step.id}: kubectl ${step.args.join(' ')}\nreal:\n${a}\nserve:\n${b}`);
      }
      const stale = Object.keys(KNOWN_DIFFERENCES).filter((id) => !differing.includes(id));
      expect(stale, 'listed differences that no longer differ').toEqual([]);
      expect(report.join('\n\n')).toBe('');
    });
  });
}
