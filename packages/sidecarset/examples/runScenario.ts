// Runs examples/scenarios/sidecarset-upgrade.yaml in the simulator with the SidecarSet
// registration of ./simRegistration (until packages/sim registers it itself), and prints the
// steps and the SidecarSet status timeline.
// Run: npx tsx --conditions=source packages/sidecarset/examples/runScenario.ts
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defaultRegistry, runScenario } from '../../sim/src/index';
import { sidecarSetController } from './simRegistration';

const file = fileURLToPath(new URL('../../../examples/scenarios/sidecarset-upgrade.yaml', import.meta.url));
const registry = defaultRegistry.clone().register(sidecarSetController);
let last = '';
const result = runScenario(readFileSync(file, 'utf8'), {
  registry,
  onTick: (sim) => {
    const line = ['log-agent', 'proxy']
      .map((n) => {
        const s = sim.store.get('apps.kruise.io/v1alpha1', 'SidecarSet', undefined, n)?.status as
          | Record<string, number>
          | undefined;
        return `${n} ${s?.matchedPods ?? 0}/${s?.updatedPods ?? 0}/${s?.readyPods ?? 0}/${s?.updatedReadyPods ?? 0}`;
      })
      .join('  ');
    if (line !== last) console.log(`${sim.clock.now()}  ${line}   (matched/updated/ready/updatedReady)`);
    last = line;
  },
  onStepEnd: (r) =>
    console.log(`step ${r.index} ${r.status}: ${r.description}${r.message ? ` — ${r.message}` : ''}`),
});
console.log(`result: ${result.status}${result.failure ? ` — ${result.failure}` : ''}`);
for (const e of result.errors) console.log(e);
const pod = result.sim?.store.list('v1', 'Pod', 'default')[0] as
  | {
      metadata: { name: string; annotations?: Record<string, string> };
      spec: { containers: { name: string; image: string }[] };
    }
  | undefined;
if (pod) {
  console.log(`${pod.metadata.name}: ${pod.spec.containers.map((c) => `${c.name}=${c.image}`).join(' ')}`);
  console.log(`working: ${pod.metadata.annotations?.['kruise.io/sidecarset-working-hotupgrade-container']}`);
}
