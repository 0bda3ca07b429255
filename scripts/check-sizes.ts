// The size check (`npm run check:imports`, after the layer check): a source file stays under
// MAX_FILE_LINES lines and a function under MAX_FUNCTION_LINES, so a reader sees a part whole and
// a part with a name of its own gets its own function or file (issue 38). Tests, generated code
// and the allow-list below are exempt. Usage: node scripts/check-sizes.ts [files…] (default: src/, web/src/).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, normalize, relative } from 'node:path';
import ts from 'typescript';

export const MAX_FILE_LINES = 300;
export const MAX_FUNCTION_LINES = 60;

/**
 * What may stay long, and why: a path (a file's length) or `path:name` (a function's), with the
 * most lines it may have. A ceiling, not a pass: an entry may shrink, not grow, and one no longer
 * over the limit fails the check until it is removed, so the list only gets shorter.
 */
export const ALLOWED: Record<string, { lines: number; why: string }> = {
  'src/client/api-types.ts': { lines: Number.POSITIVE_INFINITY, why: 'generated from the OpenAPI document by `npm run client:generate`' },
};

const ROOT = normalize(join(import.meta.dirname, '..'));
const isTest = (path: string) => /\.test\.tsx?$/.test(path) || /(^|\/)testing\//.test(path);

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((entry) => {
    const path = `${dir}/${entry}`;
    if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry) && !entry.endsWith('.d.ts') ? [path] : [];
  });
}

/** A function's name as a reader would search for it: its own, its variable's, its property's or its call's. */
function functionName(node: ts.Node, source: ts.SourceFile): string {
  const named = node as ts.FunctionLikeDeclaration;
  if (named.name) return named.name.getText(source);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText(source);
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression.getText(source).replace(/\s+/g, '');
    const firstString = parent.arguments.find(ts.isStringLiteralLike);
    return firstString ? `${callee}(${JSON.stringify(firstString.text)})` : `${callee}(…)`;
  }
  return '(anonymous)';
}

const lineOf = (source: ts.SourceFile, position: number) => source.getLineAndCharacterOfPosition(position).line;

/** Each function-like node longer than the limit, as `name: N lines`. */
function longFunctions(path: string, text: string): Array<{ name: string; lines: number }> {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: Array<{ name: string; lines: number }> = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const lines = lineOf(source, node.getEnd()) - lineOf(source, node.getStart(source)) + 1;
      if (lines > MAX_FUNCTION_LINES) found.push({ name: functionName(node, source), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every size over a limit, keyed as ALLOWED is. */
export function oversized(files: string[]): Map<string, { lines: number; limit: number }> {
  const sizes = new Map<string, { lines: number; limit: number }>();
  for (const file of files) {
    if (isTest(file)) continue;
    const text = readFileSync(join(ROOT, file), 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > MAX_FILE_LINES) sizes.set(file, { lines, limit: MAX_FILE_LINES });
    for (const { name, lines: length } of longFunctions(file, text)) {
      sizes.set(`${file}:${name}`, { lines: length, limit: MAX_FUNCTION_LINES });
    }
  }
  return sizes;
}

if (import.meta.main) {
  const everything = process.argv.length <= 2;
  const files = everything ? [...sourceFiles('src'), ...sourceFiles('web/src')] : process.argv.slice(2).map((file) => relative(ROOT, join(process.cwd(), file)));
  const sizes = oversized(files);
  const problems: string[] = [];
  for (const [key, { lines, limit }] of sizes) {
    const allowed = ALLOWED[key];
    if (allowed && lines <= allowed.lines) continue;
    const problem = allowed ? `${key}: ${lines} lines, grown past its allowed ${allowed.lines} (${allowed.why})` : `${key}: ${lines} lines (limit ${limit})`;
    problems.push(problem);
  }
  if (everything) {
    for (const key of Object.keys(ALLOWED)) if (!sizes.has(key)) problems.push(`${key}: allowed to be long but no longer is (remove it from ALLOWED in scripts/check-sizes.ts)`);
  }
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(`\n${problems.length} size${problems.length === 1 ? '' : 's'} over the limits (split where a part has a name of its own, or add to ALLOWED with the reason)`);
    process.exit(1);
  }
  const allowed = [...sizes.keys()].filter((key) => key in ALLOWED).length;
  console.log(`sizes: ${files.length} files, none over ${MAX_FILE_LINES} lines and no function over ${MAX_FUNCTION_LINES} but ${allowed} allowed`);
}
