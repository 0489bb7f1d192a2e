// Drawing one frame: the `kubectl get` tables, the pods on each node, the invariants and the
// step list. Each function replaces the content of its panel.
import type { Frame, InvariantView, NodeView, StepStatus, StepView } from '../protocol';
import { clock, el, revisionColor } from './dom';

/** The tables as kubectl prints them. */
export function drawTables(panel: HTMLElement, frame: Frame): void {
  panel.replaceChildren(
    ...frame.tables.map((t) =>
      el('section', {}, el('h3', {}, `$ ${t.title}`), el('pre', { 'data-table': t.title }, t.text)),
    ),
  );
}

/** One card per node: a square per pod (colour = revision, pale = not ready, outlined = terminating), or counts on big runs. */
export function drawNodes(panel: HTMLElement, nodes: NodeView[]): void {
  panel.replaceChildren(
    ...nodes.map((n) => {
      const title = el(
        'div',
        { class: 'node-title' },
        `${n.name} `,
        el('small', {}, `${n.total} pods${n.ready ? '' : ' · NotReady'}`),
      );
      const body = n.pods
        ? el(
            'div',
            { class: 'squares' },
            ...n.pods.map((p) =>
              el('span', {
                class: `pod${p.ready ? '' : ' not-ready'}${p.terminating ? ' terminating' : ''}`,
                style: `background:${revisionColor(p.rev)}`,
                title: `${p.name}${p.ready ? ' (ready)' : ' (not ready)'}${p.terminating ? ' (terminating)' : ''}`,
              }),
            ),
          )
        : el(
            'div',
            { class: 'counts' },
            ...n.counts.map((c) =>
              el(
                'span',
                { style: `border-left:.6rem solid ${revisionColor(c.rev)}` },
                ` ${c.ready} ready, ${c.notReady} not ready `,
              ),
            ),
            n.terminating ? el('span', {}, ` ${n.terminating} terminating`) : '',
          );
      return el('div', { class: `node${n.ready ? '' : ' node-down'}`, 'data-node': n.name }, title, body);
    }),
  );
}

/** The revision legend of the node view. */
export function drawLegend(panel: HTMLElement, revisions: string[]): void {
  panel.replaceChildren(
    ...revisions.map((r, i) => el('span', {}, el('i', { style: `background:${revisionColor(i)}` }), r)),
    el('span', {}, el('i', { class: 'pod not-ready', style: 'background:#888' }), 'not ready'),
    el('span', {}, el('i', { class: 'pod terminating', style: 'background:#888' }), 'terminating'),
  );
}

/** The invariants: held so far, or violated (first violation shown). */
export function drawInvariants(panel: HTMLElement, invariants: InvariantView[]): void {
  if (invariants.length === 0) {
    panel.replaceChildren(el('p', {}, 'No invariant is checked (add `invariants:` to the scenario).'));
    return;
  }
  panel.replaceChildren(
    el(
      'ul',
      {},
      ...invariants.map((i) =>
        el(
          'li',
          { class: i.violations ? 'bad' : 'ok', 'data-invariant': i.name },
          el('b', {}, i.name),
          i.objectName ? ` (${i.objectName})` : '',
          i.violations
            ? `: VIOLATED ${i.violations} time(s); first at ${i.first}`
            : `: held at all ${i.checks} checks`,
        ),
      ),
    ),
  );
}

/** The step list with each step's state at time `t`; a click on a step moves the clock to its end. */
export function drawSteps(
  panel: HTMLElement,
  steps: StepView[],
  results: Map<number, StepStatus>,
  t: number,
  onPick: (ms: number) => void,
): void {
  panel.replaceChildren(
    el(
      'ol',
      {},
      ...steps.map((s, i) => {
        const r = results.get(i);
        const state =
          r && r.status === 'skipped'
            ? 'skipped'
            : r && r.endedMs <= t
              ? r.status
              : r && r.startedMs <= t
                ? 'running'
                : 'pending';
        const when = r && r.status !== 'skipped' ? ` [${clock(r.startedMs)}–${clock(r.endedMs)}]` : '';
        const li = el(
          'li',
          { class: `step ${state}${s.yours ? ' yours' : ''}`, 'data-step': String(i) },
          el('span', { class: 'state' }, state),
          ` ${s.description}${when}`,
          r?.message ? el('div', { class: 'message' }, r.message) : '',
        );
        if (r && r.status !== 'skipped') li.addEventListener('click', () => onPick(r.endedMs));
        return li;
      }),
    ),
  );
}
