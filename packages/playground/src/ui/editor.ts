// The two YAML editors (scenario and workload) with a line-number gutter that marks the lines
// the scenario reader complained about, and the error list under them: a click on an error
// selects its line.
import type { LineError } from '../protocol';
import { byId, el } from './dom';

type EditorName = LineError['editor'];

const area = (name: EditorName) => byId<HTMLTextAreaElement>(name);
const gutter = (name: EditorName) => byId(`${name}-gutter`);

/** Redraws a gutter: one number per line, error lines marked. */
function drawGutter(name: EditorName, errors: readonly LineError[]): void {
  const bad = new Set(errors.filter((e) => e.editor === name && e.line !== undefined).map((e) => e.line));
  const lines = area(name).value.split('\n').length;
  const g = gutter(name);
  g.replaceChildren(
    ...Array.from({ length: lines }, (_, i) =>
      el('span', bad.has(i + 1) ? { class: 'err', 'data-error-line': String(i + 1) } : {}, `${i + 1}\n`),
    ),
  );
  g.scrollTop = area(name).scrollTop;
}

/** Selects line `line` (1-based) of an editor and scrolls to it. */
function selectLine(name: EditorName, line: number): void {
  const a = area(name);
  const lines = a.value.split('\n');
  const start = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
  a.focus();
  a.setSelectionRange(start, start + (lines[line - 1]?.length ?? 0));
  a.scrollTop = Math.max(0, (line - 3) * (a.scrollHeight / lines.length));
}

/** The editors' behaviour: gutters follow typing and scrolling. */
export function setUpEditors(): void {
  for (const name of ['scenario', 'workload'] as const) {
    area(name).addEventListener('input', () => drawGutter(name, []));
    area(name).addEventListener('scroll', () => {
      gutter(name).scrollTop = area(name).scrollTop;
    });
  }
}

/** The editors' texts. */
export function readEditors(): { scenario: string; workload: string } {
  return { scenario: area('scenario').value, workload: area('workload').value };
}

/** Fills the editors. */
export function writeEditors(scenario: string, workload: string): void {
  area('scenario').value = scenario;
  area('workload').value = workload;
  showErrors([]);
}

/** Shows the reader's errors at their lines (an empty list clears them). */
export function showErrors(errors: readonly LineError[]): void {
  drawGutter('scenario', errors);
  drawGutter('workload', errors);
  if (errors.length > 0) byId<HTMLDetailsElement>('editors').open = true;
  byId('errors').replaceChildren(
    ...errors.map((e) => {
      const where = e.line !== undefined ? `${e.editor} line ${e.line}: ` : `${e.editor}: `;
      const li = el(
        'li',
        { 'data-editor': e.editor, 'data-line': String(e.line ?? '') },
        `${where}${e.message}`,
      );
      if (e.line !== undefined) li.addEventListener('click', () => selectLine(e.editor, e.line!));
      return li;
    }),
  );
}
