// Renders docs/reference/cli.md from the commander program itself (packages/cli/src/program.ts
// `buildProgram`): every command and subcommand with its usage, arguments, options, defaults and
// help text, in the order `kruise-ts --help` lists them. The page therefore says exactly what the
// executable accepts; test/docs/cli-reference.test.ts fails when the committed page lags.
import { buildProgram, VERSION } from '../../packages/cli/src/program';
import { banner, cell, code } from './lib';

// commander's types, through the program (the repository root does not depend on commander).
type Command = ReturnType<typeof buildProgram>;
type Option = Command['options'][number];
type Argument = Command['registeredArguments'][number];

/** The CLI's help text for `cmd`, and whatever `addHelpText('after', ...)` adds below it. */
function helpOf(cmd: Command, captured: { text: string }): { help: string; after: string } {
  const help = cmd.helpInformation();
  captured.text = '';
  cmd.outputHelp();
  const after = captured.text.startsWith(help) ? captured.text.slice(help.length) : '';
  return { help, after: after.trim() };
}

/** A help text as a sentence: capitalised, ending with a full stop. */
function sentence(text: string): string {
  if (!text) return '';
  return `${text[0].toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;
}

/** `kruise-ts rollout status` for a command nested under the program. */
function fullName(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** GitHub's anchor of a heading made of a command's full name. */
export function commandAnchor(cmd: Command): string {
  return fullName(cmd).toLowerCase().replace(/\s+/g, '-');
}

function optionRow(o: Option): string {
  const dflt =
    o.defaultValueDescription ??
    (o.defaultValue === undefined
      ? ''
      : code(typeof o.defaultValue === 'string' ? o.defaultValue : JSON.stringify(o.defaultValue)));
  const notes = [
    o.mandatory ? 'required' : '',
    o.variadic ? 'repeatable' : '',
    o.argChoices ? `one of ${o.argChoices.map((c) => code(c)).join(', ')}` : '',
  ].filter(Boolean);
  const description = `${cell(o.description)}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
  return `| ${code(o.flags)} | ${dflt} | ${description} |`;
}

function argumentRow(a: Argument): string {
  const form = a.required
    ? `<${a.name()}${a.variadic ? '...' : ''}>`
    : `[${a.name()}${a.variadic ? '...' : ''}]`;
  return `| ${code(form)} | ${a.required ? 'yes' : 'no'} | ${cell(a.description)} |`;
}

/** Every command below `cmd`, depth first in the order they were added. */
function descendants(cmd: Command): Command[] {
  return cmd.commands.flatMap((c) => [c, ...descendants(c)]);
}

function section(cmd: Command, captured: { text: string }): string[] {
  const { after } = helpOf(cmd, captured);
  const visible = cmd.createHelp().visibleOptions(cmd);
  const args = cmd.registeredArguments;
  const lines = [`## ${fullName(cmd)}`, '', sentence(cmd.description()), ''];
  lines.push('```', `${fullName(cmd)} ${cmd.usage()}`.trim(), '```', '');
  if (cmd.commands.length > 0) {
    lines.push(
      `Subcommands: ${cmd.commands.map((c) => `[${c.name()}](#${commandAnchor(c)})`).join(', ')}.`,
      '',
    );
  }
  if (args.length > 0) {
    lines.push('| argument | required | meaning |', '| --- | --- | --- |', ...args.map(argumentRow), '');
  }
  if (visible.length > 0) {
    lines.push('| option | default | meaning |', '| --- | --- | --- |', ...visible.map(optionRow), '');
  }
  if (after) lines.push('More from its help:', '', '```text', after, '```', '');
  if (fullName(cmd) === 'kruise-ts operator')
    lines.push(
      "The operator parses its flags itself (kruise-manager's names); all of them, with defaults, are in",
      "[the operator's README](../../packages/operator/README.md#flags-operatormd-33-subset).",
      '',
    );
  return lines;
}

/** The Markdown of docs/reference/cli.md, from the program as built now. */
export function renderCliReference(): string {
  const captured = { text: '' };
  const io = {
    stdout: (t: string) => {
      captured.text += t;
    },
    stderr: (t: string) => {
      captured.text += t;
    },
    cwd: process.cwd(),
    isTTY: false,
    readFile: () => '',
    writeFile: () => {},
  };
  const program = buildProgram(io, () => {});
  const all = descendants(program);
  const global = program.createHelp().visibleOptions(program);
  const lines = [
    banner('scripts/docs/gen-cli-reference.ts from packages/cli/src/program.ts'),
    '# `kruise-ts` command reference',
    '',
    `Every command of \`kruise-ts\` ${VERSION}, its arguments, options and defaults, read from the`,
    "program's own definitions, so this page and `kruise-ts <command> --help` say the same thing.",
    "What each command does, with examples and exit codes, is in the [CLI's README](../../packages/cli/README.md).",
    'Exit codes for every command: 0 success, 1 a failed run or a rejected object, 2 bad usage or input.',
    '',
    '| command | what it does |',
    '| --- | --- |',
    ...all.map((c) => `| [${fullName(c)}](#${commandAnchor(c)}) | ${cell(c.description())} |`),
    '',
    '## Global options',
    '',
    'Given before the command name they apply to any command; `sim`, `demo` and `reconcile` also take them after it.',
    '',
    '| option | default | meaning |',
    '| --- | --- | --- |',
    ...global.map(optionRow),
    '',
  ];
  for (const c of all) lines.push(...section(c, captured));
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}
