// The event log's bound: the most recent records are kept, older ones counted as dropped,
// listeners see every record, and `Infinity` keeps the full log.
import { DEFAULT_EVENT_LOG_CAPACITY, EventLog, type SimEvent } from '@kruise-ts/cluster';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../src/scenario/run';

const rec = (i: number, type = 'Create'): SimEvent => ({ t: i, time: '2024-01-01T00:00:00Z', type });

describe('EventLog capacity', () => {
  it('keeps the most recent `capacity` records, oldest first, and counts the rest', () => {
    const log = new EventLog('all', 3);
    for (let i = 0; i < 10; i++) log.add(rec(i));
    expect(log.records.map((r) => r.t)).toEqual([7, 8, 9]);
    expect(log.dropped).toBe(7);
    expect(log.toJSONLines().trim().split('\n')).toHaveLength(3);
  });

  it('never holds more than twice the capacity between reads', () => {
    const log = new EventLog('all', 4);
    for (let i = 0; i < 1000; i++) {
      log.add(rec(i));
      expect((log as unknown as { buffer: SimEvent[] }).buffer.length).toBeLessThan(8);
    }
    expect(log.records.map((r) => r.t)).toEqual([996, 997, 998, 999]);
  });

  it('tells listeners every record, including the dropped ones', () => {
    const log = new EventLog('all', 2);
    const seen: number[] = [];
    log.onRecord((e) => seen.push(e.t));
    for (let i = 0; i < 5; i++) log.add(rec(i));
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    expect(log.records).toHaveLength(2);
  });

  it('keeps everything with Infinity, and filters by level before counting', () => {
    const full = new EventLog('summary', Number.POSITIVE_INFINITY);
    for (let i = 0; i < DEFAULT_EVENT_LOG_CAPACITY + 5; i++) full.add(rec(i));
    full.add(rec(-1, 'ContainerStarted'));
    expect(full.records).toHaveLength(DEFAULT_EVENT_LOG_CAPACITY + 5);
    expect(full.dropped).toBe(0);
    expect(new EventLog().capacity).toBe(DEFAULT_EVENT_LOG_CAPACITY);
  });

  it('runScenario passes eventLogCapacity through to the simulation', () => {
    const scenario = {
      apiVersion: 'sim.kruise-ts.io/v1alpha1',
      kind: 'Scenario',
      metadata: { name: 'small' },
      spec: {
        seed: 1,
        manifests: [
          {
            apiVersion: 'apps.kruise.io/v1alpha1',
            kind: 'CloneSet',
            metadata: { name: 'web' },
            spec: {
              replicas: 3,
              selector: { matchLabels: { app: 'web' } },
              template: {
                metadata: { labels: { app: 'web' } },
                spec: { containers: [{ name: 'main', image: 'app:v1' }] },
              },
            },
          },
        ],
        steps: [{ waitFor: { kind: 'CloneSet', name: 'web', condition: 'Available', timeout: '10m' } }],
      },
    };
    const bounded = runScenario(scenario, { eventLogCapacity: 5 });
    const full = runScenario(scenario);
    expect(bounded.status).toBe('passed');
    expect(full.sim!.events.length).toBeGreaterThan(5);
    expect(bounded.sim!.events).toEqual(full.sim!.events.slice(-5));
    expect(bounded.sim!.log.dropped).toBe(full.sim!.events.length - 5);
  });
});
