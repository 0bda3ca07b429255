// The layer check (`npm run check:imports`, after madge's import-circle check): a file imports
// from its own layer or a lower one, never from a higher one, type-only imports included.
// The layers, top first, are docs/architecture.md's; a file in no layer fails too, so a new
// folder is placed on purpose. Usage: node scripts/check-layers.ts [files…] (default: all of src/).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/** Top first. A path belongs to the first layer with a prefix it starts with. */
export const LAYERS: Array<{ name: string; paths: string[] }> = [
  { name: 'composition root', paths: ['src/main.ts', 'src/app.ts', 'src/deps.ts', 'src/job-runtime.ts', 'src/cli/', 'src/testing/'] },
  {
    name: 'capabilities',
    paths: ['src/accounts/', 'src/auth/', 'src/api-keys/', 'src/credits/', 'src/plans/', 'src/billing/', 'src/discovery/', 'src/generation/', 'src/sites/', 'src/web/', 'src/webhooks/', 'src/schedules/', 'src/health/', 'src/job-input/', 'src/lint/', 'src/mcp/', 'src/metrics/'],
  },
  { name: 'service frameworks (http, jobs)', paths: ['src/http/', 'src/jobs/'] },
  { name: 'libraries', paths: ['src/crawl/', 'src/llms-txt/', 'src/mail/', 'src/crypto/', 'src/client/'] },
  { name: 'base', paths: ['src/db/', 'src/errors.ts', 'src/config.ts', 'src/config/', 'src/clock.ts', 'src/shapes.ts'] },
];

const ROOT = normalize(join(import.meta.dirname, '..'));

function layerOf(path: string): number {
  return LAYERS.findIndex((layer) => layer.paths.some((prefix) => path === prefix || (prefix.endsWith('/') && path.startsWith(prefix))));
}

/**
 * Tests and their helpers (a `testing/` folder: src/testing/ for the whole service's, a
 * capability's own beside it) may reach anything, as a user of the whole service does; nothing
 * else may import a test helper.
 */
const isTest = (path: string) => /\.test\.tsx?$/.test(path) || /(^|\/)testing\//.test(path);

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((entry) => {
    const path = `${dir}/${entry}`;
    if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry) ? [path] : [];
  });
}

/** Every relative module a file names: static imports and re-exports, `import type`, dynamic `import()`. */
function importsOf(path: string): string[] {
  const text = readFileSync(join(ROOT, path), 'utf8');
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'";]*?from\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)]
    .map((match) => match[1] ?? match[2] ?? match[3]);
  return specifiers.filter((specifier) => specifier.startsWith('.')).map((specifier) => relative(ROOT, join(ROOT, dirname(path), specifier)));
}

const CAPABILITIES = LAYERS.findIndex((layer) => layer.name === 'capabilities');
/** What a capability's logic may use of http/: links and types, no HTTP machinery. */
const HTTP_FOR_LOGIC = new Set(['src/http/paths.ts', 'src/http/types.ts']);
/** A protocol's surface, not logic: the routes, and the MCP server's tools (which validate as the routes do). */
const isSurface = (path: string) => path.endsWith('/routes.ts') || path === 'src/mcp/server.ts';

/** The upward imports and the files in no layer, as lines to print. */
export function layerViolations(files: string[]): string[] {
  const problems: string[] = [];
  for (const file of files) {
    if (isTest(file)) continue;
    const own = layerOf(file);
    if (own < 0) {
      problems.push(`${file}: in no layer (add its folder to LAYERS in scripts/check-layers.ts and to docs/architecture.md)`);
      continue;
    }
    for (const target of importsOf(file)) {
      if (isTest(target)) problems.push(`${file} imports ${target}: only tests and test helpers may import a test helper`);
      const theirs = layerOf(target);
      if (theirs >= 0 && theirs < own) problems.push(`${file} imports ${target}: ${LAYERS[own].name} may not import from ${LAYERS[theirs].name}, a layer above it`);
      if (own === CAPABILITIES && !isSurface(file) && target.startsWith('src/http/') && !HTTP_FOR_LOGIC.has(target)) {
        problems.push(`${file} imports ${target}: a capability's logic uses only ${[...HTTP_FOR_LOGIC].join(' and ')} of http/; the rest is for its routes.ts`);
      }
      if (target.endsWith('/routes.ts') && own !== 0) problems.push(`${file} imports ${target}: a capability's routes are registered by app.ts alone`);
    }
  }
  return problems;
}

if (import.meta.main) {
  const files = process.argv.length > 2 ? process.argv.slice(2).map((file) => relative(ROOT, join(process.cwd(), file))) : sourceFiles('src');
  const problems = layerViolations(files);
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(`\n${problems.length} import${problems.length === 1 ? '' : 's'} across the layers (docs/architecture.md)`);
    process.exit(1);
  }
  console.log(`layers: ${files.length} files, no import from a higher layer`);
}
