// The selector string form (`a=1,b!=2,c in (x,y),!d,e>5`) and its parser, as
// k8s.io/apimachinery `labels.Parse` reads it: the lexer, the grammar, Kubernetes' error
// messages. Exported by ./index.
import { KruiseError } from '../contract/errors';
import {
  type LabelRequirement,
  type Labels,
  newRequirement,
  requirementMatches,
  type SelectorOperator,
  sortRequirementsByKey,
} from './labelRequirements';
import { isQualifiedName } from './nameValidation';

type Tok = 'id' | 'in' | 'notin' | '!' | '!=' | '(' | ')' | ',' | '=' | '==' | '>' | '<' | 'end' | 'error';

const SPECIAL: ReadonlySet<string> = new Set(['=', '!', '(', ')', ',', '>', '<']);
const SYMBOL_TOKENS: Record<string, Tok> = {
  '!': '!',
  '!=': '!=',
  '(': '(',
  ')': ')',
  ',': ',',
  '=': '=',
  '==': '==',
  '>': '>',
  '<': '<',
};

function lex(s: string): Array<{ tok: Tok; lit: string }> {
  const out: Array<{ tok: Tok; lit: string }> = [];
  let i = 0;
  while (true) {
    while (i < s.length && ' \t\r\n'.includes(s[i])) i++;
    if (i >= s.length) {
      out.push({ tok: 'end', lit: '' });
      return out;
    }
    if (SPECIAL.has(s[i])) {
      let buf = '';
      let last: { tok: Tok; lit: string } | undefined;
      while (i < s.length && SPECIAL.has(s[i])) {
        const next = buf + s[i];
        if (Object.hasOwn(SYMBOL_TOKENS, next)) {
          buf = next;
          last = { tok: SYMBOL_TOKENS[next], lit: next };
          i++;
        } else if (last) {
          break;
        } else {
          buf = next;
          i++;
        }
      }
      if (!last) {
        out.push({ tok: 'error', lit: `error expected: keyword found '${buf}'` });
        return out;
      }
      out.push(last);
      continue;
    }
    let id = '';
    while (i < s.length && !' \t\r\n'.includes(s[i]) && !SPECIAL.has(s[i])) id += s[i++];
    out.push({ tok: id === 'in' ? 'in' : id === 'notin' ? 'notin' : 'id', lit: id });
  }
}

/**
 * `labels.Parse`: parses the selector string form (`"a=1,b!=2,c in (x,y),!d,e>5"`) into
 * requirements sorted by key; In/NotIn values are sorted and de-duplicated.
 *
 * @throws KruiseError with Kubernetes' message (`unable to parse requirement: ...`) on bad syntax
 *   or an invalid key/value.
 */
export function parseSelectorString(s: string): LabelRequirement[] {
  const items = lex(s);
  let pos = 0;
  // In "values" context the keywords `in`/`notin` are plain identifiers.
  const look = (values: boolean) => {
    const it = items[Math.min(pos, items.length - 1)];
    return values && (it.tok === 'in' || it.tok === 'notin') ? { tok: 'id' as Tok, lit: it.lit } : it;
  };
  const take = (values: boolean) => {
    const it = look(values);
    pos++;
    return it;
  };
  const fail = (msg: string): never => {
    throw new KruiseError(msg, s);
  };

  const parseValues = (): string[] => {
    const open = take(true);
    if (open.tok !== '(') fail(`found '${open.lit}' expected: '('`);
    const next = look(true);
    if (next.tok === ')') {
      take(true);
      return [''];
    }
    if (next.tok !== 'id' && next.tok !== ',') fail(`found '${next.lit}', expected: ',', ')' or identifier`);
    const vals = new Set<string>();
    let prev: Tok = ',';
    while (true) {
      const t = take(true);
      if (t.tok === 'id') {
        if (prev === 'id') fail(`found '${t.lit}', expected: ',' or ')'`);
        vals.add(t.lit);
        prev = 'id';
      } else if (t.tok === ',') {
        if (prev === ',') vals.add('');
        prev = ',';
      } else if (t.tok === ')') {
        if (prev === ',') vals.add('');
        return [...vals].sort();
      } else {
        fail(`found '${t.lit}', expected: ',', or identifier`);
      }
    }
  };

  const parseRequirement = (): LabelRequirement => {
    let op: SelectorOperator | undefined;
    let t = take(true);
    if (t.tok === '!') {
      op = '!';
      t = take(true);
    }
    if (t.tok !== 'id') fail(`found '${t.lit}', expected: identifier`);
    const key = t.lit;
    const errs = isQualifiedName(key);
    if (errs.length > 0) fail(`key: Invalid value: ${JSON.stringify(key)}: ${errs.join('; ')}`);
    const after = look(true).tok;
    if (after === 'end' || after === ',') op ??= 'exists';
    if (op === 'exists' || op === '!') return newRequirement(key, op, []);
    const o = take(false);
    const opMap: Partial<Record<Tok, SelectorOperator>> = {
      in: 'in',
      notin: 'notin',
      '=': '=',
      '==': '==',
      '!=': '!=',
      '>': 'gt',
      '<': 'lt',
    };
    const binary = opMap[o.tok];
    if (binary === undefined) fail(`found '${o.lit}', expected: !=, =, ==, >, <, in, notin`);
    let values: string[];
    if (binary === 'in' || binary === 'notin') {
      values = parseValues();
    } else {
      const v = look(true);
      if (v.tok === 'end' || v.tok === ',') values = [''];
      else {
        const id = take(true);
        if (id.tok !== 'id') fail(`found '${id.lit}', expected: identifier`);
        values = [id.lit];
      }
    }
    return newRequirement(key, binary as SelectorOperator, values);
  };

  const reqs: LabelRequirement[] = [];
  try {
    while (true) {
      const t = look(true);
      if (t.tok === 'end') return sortRequirementsByKey(reqs);
      if (t.tok !== 'id' && t.tok !== '!')
        fail(`found '${t.lit}', expected: !, identifier, or 'end of string'`);
      try {
        reqs.push(parseRequirement());
      } catch (e) {
        throw new KruiseError(`unable to parse requirement: ${(e as Error).message}`, s);
      }
      const sep = take(true);
      if (sep.tok === 'end') return sortRequirementsByKey(reqs);
      if (sep.tok !== ',') fail(`found '${sep.lit}', expected: ',' or 'end of string'`);
      const n = look(true);
      if (n.tok !== 'id' && n.tok !== '!') fail(`found '${n.lit}', expected: identifier after ','`);
    }
  } catch (e) {
    if (e instanceof KruiseError) throw e;
    throw new KruiseError(String(e), s);
  }
}

/**
 * Do the labels match the selector string (e.g. a `status.labelSelector`)? `""` matches everything.
 * Example: `matchesSelectorString("app=web,tier notin (db)", {app:'web'})` → true.
 * @throws KruiseError when the string does not parse.
 */
export function matchesSelectorString(s: string, labels: Labels): boolean {
  return parseSelectorString(s).every((r) => requirementMatches(r, labels));
}
