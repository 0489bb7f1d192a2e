// The report's event table: the event log grouped by object (one collapsible section each, in
// order of first appearance; steps and other records without an object in a group of their own),
// with each record's detail as a sentence instead of JSON, and a text filter over objects, types
// and details. Long logs drop the kubelet's and scheduler's chatter first, then stop at
// MAX_EVENT_ROWS rows, saying so.
import { formatDuration, type SimEvent } from '@kruise-ts/cluster';
import { escapeHtml } from './svgParts';

const MAX_EVENT_ROWS = 5000;
const CHATTY: ReadonlySet<string> = new Set([
  'ImagePulling',
  'ImagePulled',
  'ContainerStarted',
  'ContainerReady',
  'Scheduled',
  'UpdateStatus',
  'PodTerminating',
  'PodTerminated',
]);

type J = Record<string, unknown>;

const text = (v: unknown): string => {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.map(text).join(', ');
  const s = JSON.stringify(v);
  return s.length > 160 ? `${s.slice(0, 157)}...` : s;
};

/** One record's detail as a sentence: `Normal SuccessfulCreate: succeed to create pod x`, `on node-1`. */
export function describeEvent(e: SimEvent): string {
  const d = (e.detail ?? {}) as J;
  switch (e.type) {
    case 'Event':
      return `${text(d.type)} ${text(d.reason)}: ${text(d.message)}`;
    case 'Scheduled':
      return `bound to ${text(d.node)}`;
    case 'ImagePulling':
      return `pulling ${text(d.image)}${d.seconds !== undefined ? ` (${text(d.seconds)} s)` : ''}`;
    case 'ImagePulled':
      return `pulled ${text(d.image)}`;
    case 'ContainerStarted':
      return `container ${text(d.container)} started${d.image ? ` with ${text(d.image)}` : ''}`;
    case 'ContainerReady':
      return `container ${text(d.container)} ready`;
    case 'ContainerRestarting':
      return `container ${text(d.container)} restarting${d.image ? ` with ${text(d.image)}` : ''}${d.reason ? ` (${text(d.reason)})` : ''}`;
    case 'StepStarted':
    case 'StepDone':
    case 'StepFailed':
      return `step ${Number(d.index ?? 0) + 1}: ${text(d.step)}${d.message ? ` (${text(d.message)})` : ''}`;
    case 'InvariantViolation':
      return `${text(d.invariant)}: ${text(d.message)}`;
  }
  const parts: string[] = [];
  if (d.reason !== undefined) parts.push(text(d.reason));
  for (const [k, v] of Object.entries(d)) {
    if (k === 'reason') continue;
    parts.push(`${k} ${text(v)}`);
  }
  return parts.join('; ');
}

function rowClass(e: SimEvent): string {
  if (
    e.type === 'InvariantViolation' ||
    e.type === 'StepFailed' ||
    e.type === 'ActionFailed' ||
    e.type === 'Rejected'
  )
    return 'bad';
  if (e.type.startsWith('Step')) return 'step';
  if (e.type === 'Event' && (e.detail as { type?: string } | undefined)?.type === 'Warning') return 'warn';
  return '';
}

/** The grouped, filterable event table. */
export function eventTable(events: readonly SimEvent[]): string {
  let rows = events;
  let note = '';
  if (rows.length > MAX_EVENT_ROWS) {
    rows = rows.filter((e) => !CHATTY.has(e.type));
    note = `<p>${events.length} events; kubelet, scheduler and status-write events are left out.</p>`;
    if (rows.length > MAX_EVENT_ROWS) {
      note = `<p>${events.length} events; showing the first ${MAX_EVENT_ROWS} of ${rows.length} non-kubelet events (use <code>--json</code> for all).</p>`;
      rows = rows.slice(0, MAX_EVENT_ROWS);
    }
  }
  // The steps come first; then every object in the order it first appears.
  const groups = new Map<string, SimEvent[]>([['(steps and run)', []]]);
  for (const e of rows) {
    const k = e.object ?? '(steps and run)';
    const g = groups.get(k);
    if (g) g.push(e);
    else groups.set(k, [e]);
  }
  const sections = [...groups]
    .filter(([, list]) => list.length > 0)
    .map(([object, list]) => {
      const bad = list.filter((e) => rowClass(e) === 'bad').length;
      const warn = list.filter((e) => rowClass(e) === 'warn').length;
      const flags = [bad ? `${bad} failed` : '', warn ? `${warn} warning${warn === 1 ? '' : 's'}` : '']
        .filter(Boolean)
        .join(', ');
      const body = list
        .map(
          (e) =>
            `<tr class="${rowClass(e)}"><td>${formatDuration(e.t * 1000)}</td><td>${escapeHtml(e.type)}</td><td>${escapeHtml(e.source ?? '')}</td><td>${escapeHtml(describeEvent(e))}</td></tr>`,
        )
        .join('\n');
      const search =
        `${object} ${[...new Set(list.map((e) => e.type))].join(' ')} ${list.map(describeEvent).join(' ')}`
          .toLowerCase()
          .slice(0, 20_000);
      return `<details class="obj${bad ? ' bad' : warn ? ' warn' : ''}" data-text="${escapeHtml(search)}"${bad || object === '(steps and run)' ? ' open' : ''}><summary><b>${escapeHtml(object)}</b> ${list.length} event${list.length === 1 ? '' : 's'}${flags ? ` (${flags})` : ''}</summary>
<table class="events"><tr><th>time</th><th>type</th><th>source</th><th>what happened</th></tr>
${body}
</table></details>`;
    });
  return `${note}<p><input type="search" id="event-filter" placeholder="filter: object, type or text (e.g. Warning, sample-)" size="48"> <span id="event-count">${groups.size} objects</span></p>
${sections.join('\n')}`;
}

/**
 * The script of the event filter: shows the objects whose text has the query, opened. A link
 * ending `#filter=<query>` opens the page filtered.
 */
export const EVENT_FILTER_SCRIPT = `(function(){var f=document.getElementById('event-filter');if(!f)return;var all=document.querySelectorAll('details.obj');function apply(){var q=f.value.toLowerCase().trim();var n=0;for(var i=0;i<all.length;i++){var d=all[i];var m=!q||d.getAttribute('data-text').indexOf(q)>=0;d.hidden=!m;if(m){n++;if(q)d.open=true;}}document.getElementById('event-count').textContent=n+' objects';}f.addEventListener('input',apply);var h=location.hash.match(/^#filter=(.*)$/);if(h){f.value=decodeURIComponent(h[1]);apply();}})();`;
