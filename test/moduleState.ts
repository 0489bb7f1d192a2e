// Finds module-level mutable state in TypeScript sources with the compiler's own parser and type
// checker (the rule is stated in module-state.test.ts, which runs this over the pure packages).
// A finding names the file, the line and what is wrong; an empty list means the files keep no
// state between calls.
import ts from 'typescript';

/** One piece of module-level mutable state. */
export interface Finding {
  file: string;
  line: number;
  /** `let`, `var`, `mutable-type`, `write`, `static`, `iife` */
  rule: string;
  detail: string;
}

/** Types that hold state: a module-level binding of one of them is a cache or a counter. */
const MUTABLE_TYPES = new Set([
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'WeakRef',
  'Array',
  'ArrayBuffer',
  'SharedArrayBuffer',
  'Buffer',
  'DataView',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
]);

/** Methods that change the array, map or set they are called on. */
const MUTATING_METHODS = new Set([
  'push',
  'pop',
  'shift',
  'unshift',
  'splice',
  'sort',
  'reverse',
  'fill',
  'copyWithin',
  'set',
  'add',
  'delete',
  'clear',
]);

/** `Object.<name>(target, ...)` calls that change `target`. */
const OBJECT_MUTATORS = new Set(['assign', 'defineProperty', 'defineProperties', 'setPrototypeOf']);

const ASSIGNMENT_OPERATORS = new Set([
  ts.SyntaxKind.EqualsToken,
  ts.SyntaxKind.PlusEqualsToken,
  ts.SyntaxKind.MinusEqualsToken,
  ts.SyntaxKind.AsteriskEqualsToken,
  ts.SyntaxKind.AsteriskAsteriskEqualsToken,
  ts.SyntaxKind.SlashEqualsToken,
  ts.SyntaxKind.PercentEqualsToken,
  ts.SyntaxKind.LessThanLessThanEqualsToken,
  ts.SyntaxKind.GreaterThanGreaterThanEqualsToken,
  ts.SyntaxKind.GreaterThanGreaterThanGreaterThanEqualsToken,
  ts.SyntaxKind.AmpersandEqualsToken,
  ts.SyntaxKind.BarEqualsToken,
  ts.SyntaxKind.CaretEqualsToken,
  ts.SyntaxKind.BarBarEqualsToken,
  ts.SyntaxKind.AmpersandAmpersandEqualsToken,
  ts.SyntaxKind.QuestionQuestionEqualsToken,
]);

/** Strips what does not change a value: parentheses, `as`, `satisfies`, `!`. */
function unwrap(e: ts.Expression): ts.Expression {
  while (
    ts.isParenthesizedExpression(e) ||
    ts.isAsExpression(e) ||
    ts.isSatisfiesExpression(e) ||
    ts.isNonNullExpression(e) ||
    ts.isTypeAssertionExpression(e)
  )
    e = e.expression;
  return e;
}

/**
 * The identifier at the root of `a.b[c].d`. A call ends the chain (`f(x).push(y)` writes into
 * what `f` returned; a module-level container it may return is caught by its type).
 */
function rootIdentifier(e: ts.Expression): ts.Identifier | undefined {
  for (;;) {
    e = unwrap(e);
    if (ts.isIdentifier(e)) return e;
    if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) e = e.expression;
    else return undefined;
  }
}

/** Is the node inside a function body or a class member (code that runs per call)? */
function insideFunction(node: ts.Node): boolean {
  for (let p = node.parent; p !== undefined; p = p.parent) {
    if (ts.isFunctionLike(p) || ts.isClassStaticBlockDeclaration(p)) return true;
    if (
      ts.isPropertyDeclaration(p) &&
      !ts.getModifiers(p)?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword)
    )
      return true;
  }
  return false;
}

function isModuleLevelDeclaration(decl: ts.Declaration): boolean {
  if (ts.isVariableDeclaration(decl)) {
    const statement = decl.parent?.parent;
    return statement !== undefined && ts.isVariableStatement(statement) && ts.isSourceFile(statement.parent);
  }
  if (ts.isFunctionDeclaration(decl) || ts.isClassDeclaration(decl)) return ts.isSourceFile(decl.parent);
  return false;
}

/** The names of the mutable container types in `type` (each member of a union), or []. */
function mutableTypeNames(checker: ts.TypeChecker, type: ts.Type): string[] {
  const parts = type.isUnion() ? type.types : [type];
  const out: string[] = [];
  for (const t of parts) {
    if (checker.isTupleType(t)) {
      const target = (t as ts.TypeReference).target as ts.TupleType;
      if (!target.readonly) out.push('tuple');
      continue;
    }
    const name = t.getSymbol()?.getName();
    if (name !== undefined && MUTABLE_TYPES.has(name)) out.push(name);
    else if (name === 'RegExp') out.push('RegExp');
  }
  return out;
}

/**
 * String methods that reset a global RegExp's `lastIndex` before they use it (`replace`,
 * `replaceAll`, `match`, `split`) or work on a copy (`matchAll`): a `g` RegExp used only as
 * their argument carries nothing from one call to the next.
 */
const RESETTING_METHODS = new Set(['replace', 'replaceAll', 'match', 'matchAll', 'split']);

/** Is every use of `decl`'s binding in its file the pattern argument of a resetting method? */
function onlyResettingUses(
  checker: ts.TypeChecker,
  sf: ts.SourceFile,
  decl: ts.VariableDeclaration,
): boolean {
  const symbol = checker.getSymbolAtLocation(decl.name);
  const statement = decl.parent.parent;
  // an exported RegExp may be used anywhere
  if (
    ts.isVariableStatement(statement) &&
    ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
  )
    return false;
  let ok = true;
  const visit = (node: ts.Node): void => {
    if (!ok) return;
    if (
      ts.isExportSpecifier(node) &&
      (node.propertyName ?? node.name).getText(sf) === decl.name.getText(sf)
    ) {
      ok = false;
      return;
    }
    if (ts.isIdentifier(node) && node !== decl.name && checker.getSymbolAtLocation(node) === symbol) {
      const call = node.parent;
      ok =
        ts.isCallExpression(call) &&
        call.arguments[0] === node &&
        ts.isPropertyAccessExpression(call.expression) &&
        RESETTING_METHODS.has(call.expression.name.text);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return ok;
}

/** Does this RegExp value carry the `g` or `y` flag (a `lastIndex` that `exec`/`test` move)? */
function statefulRegExp(init: ts.Expression): boolean {
  const e = unwrap(init);
  if (ts.isRegularExpressionLiteral(e)) return /\/[a-z]*[gy][a-z]*$/.test(e.text);
  if (ts.isNewExpression(e) || ts.isCallExpression(e)) {
    const flags = e.arguments?.[1];
    if (flags === undefined) return false;
    return !ts.isStringLiteralLike(flags) || /[gy]/.test(flags.text);
  }
  return true; // a RegExp from elsewhere: its flags are unknown
}

/** Reports module-level mutable state in `files` (absolute paths, all part of `program`). */
export function findModuleState(program: ts.Program, files: readonly string[]): Finding[] {
  const checker = program.getTypeChecker();
  const checked = new Set(files.map((f) => program.getSourceFile(f)).filter((s) => s !== undefined));
  const findings: Finding[] = [];
  const report = (sf: ts.SourceFile, node: ts.Node, rule: string, detail: string) =>
    findings.push({
      file: sf.fileName,
      line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1,
      rule,
      detail,
    });

  /** Does `id` name a module-level binding of a checked file? */
  const isModuleBinding = (id: ts.Identifier): boolean => {
    let symbol = checker.getSymbolAtLocation(id);
    if (symbol === undefined) return false;
    if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    return (symbol.declarations ?? []).some(
      (d) => checked.has(d.getSourceFile()) && isModuleLevelDeclaration(d),
    );
  };

  const checkWrite = (sf: ts.SourceFile, node: ts.Node, target: ts.Expression, what: string) => {
    const t = unwrap(target);
    // only writes into an object (a.b = ..., a[i] = ...); a plain `x = ...` to a module-level
    // `let` is already reported by the `let` rule, and to a const does not compile
    if (!ts.isPropertyAccessExpression(t) && !ts.isElementAccessExpression(t) && what !== 'call') return;
    const root = rootIdentifier(t);
    if (root !== undefined && isModuleBinding(root) && insideFunction(node))
      report(
        sf,
        node,
        'write',
        `${what} through module-level \`${root.text}\`: ${node.getText(sf).slice(0, 80)}`,
      );
  };

  for (const sf of checked) {
    for (const statement of sf.statements) {
      if (ts.isVariableStatement(statement)) {
        const flags = statement.declarationList.flags;
        const kind = flags & ts.NodeFlags.Let ? 'let' : flags & ts.NodeFlags.Const ? 'const' : 'var';
        for (const decl of statement.declarationList.declarations) {
          const name = decl.name.getText(sf);
          if (kind !== 'const') {
            report(sf, decl, kind, `module-level \`${kind} ${name}\``);
            continue;
          }
          const init = decl.initializer && unwrap(decl.initializer);
          if (init && ts.isCallExpression(init)) {
            const callee = unwrap(init.expression);
            if (ts.isFunctionExpression(callee) || ts.isArrowFunction(callee))
              report(
                sf,
                decl,
                'iife',
                `\`${name}\` is the result of a function run at load (state may hide in its closure)`,
              );
          }
          for (const t of mutableTypeNames(checker, checker.getTypeAtLocation(decl.name))) {
            if (t === 'RegExp') {
              if (
                (decl.initializer === undefined || statefulRegExp(decl.initializer)) &&
                !(ts.isIdentifier(decl.name) && onlyResettingUses(checker, sf, decl))
              )
                report(
                  sf,
                  decl,
                  'mutable-type',
                  `\`${name}\` is a RegExp with a g or y flag (its lastIndex moves)`,
                );
            } else report(sf, decl, 'mutable-type', `\`${name}\` holds a mutable ${t}`);
          }
        }
      }
      if (ts.isClassDeclaration(statement)) {
        for (const member of statement.members) {
          if (!ts.isPropertyDeclaration(member)) continue;
          const mods = ts.getModifiers(member) ?? [];
          if (!mods.some((m) => m.kind === ts.SyntaxKind.StaticKeyword)) continue;
          const name = member.name.getText(sf);
          if (!mods.some((m) => m.kind === ts.SyntaxKind.ReadonlyKeyword))
            report(sf, member, 'static', `static field \`${name}\` is not readonly`);
          else
            for (const t of mutableTypeNames(checker, checker.getTypeAtLocation(member.name)))
              if (t !== 'RegExp')
                report(sf, member, 'static', `static field \`${name}\` holds a mutable ${t}`);
        }
      }
    }
    const visit = (node: ts.Node): void => {
      if (ts.isBinaryExpression(node) && ASSIGNMENT_OPERATORS.has(node.operatorToken.kind))
        checkWrite(sf, node, node.left, 'assignment');
      else if (
        (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
        (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)
      )
        checkWrite(sf, node, node.operand, 'increment');
      else if (ts.isDeleteExpression(node)) checkWrite(sf, node, node.expression, 'delete');
      else if (ts.isCallExpression(node)) {
        const callee = unwrap(node.expression);
        if (ts.isPropertyAccessExpression(callee)) {
          const method = callee.name.text;
          const receiver = unwrap(callee.expression);
          if (ts.isIdentifier(receiver) && receiver.text === 'Object' && OBJECT_MUTATORS.has(method)) {
            const target = node.arguments[0];
            if (target !== undefined) checkWrite(sf, node, target, 'call');
          } else if (MUTATING_METHODS.has(method)) checkWrite(sf, node, callee.expression, 'call');
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return findings.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}

/** A program over `files` with the options of the tsconfig at `tsconfigPath`. */
export function programFor(tsconfigPath: string, files: readonly string[]): ts.Program {
  const config = ts.readConfigFile(tsconfigPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, tsconfigPath.replace(/[^/]+$/, ''));
  return ts.createProgram({ rootNames: files, options: { ...parsed.options, noEmit: true } });
}

/** A program over in-memory sources (`name -> text`), for the checker's own tests. */
export function programFromSources(sources: Record<string, string>): ts.Program {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2023.d.ts'],
    strict: true,
    noEmit: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.fileExists = (f) => f in sources || ts.sys.fileExists(f);
  host.directoryExists = (d) =>
    Object.keys(sources).some((f) => f.startsWith(`${d}/`)) || ts.sys.directoryExists(d);
  host.readFile = (f) => sources[f] ?? readFile(f);
  host.getSourceFile = (f, lang, ...rest) =>
    f in sources ? ts.createSourceFile(f, sources[f], lang, true) : getSourceFile(f, lang, ...rest);
  return ts.createProgram({ rootNames: Object.keys(sources), options, host });
}
