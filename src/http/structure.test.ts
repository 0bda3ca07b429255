/**
 * The code's own shape, as a newcomer relies on it: every route path written once, where its
 * route is defined, and handlers that take request data as their schemas type it.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { API_PREFIX } from './paths.ts';
import { describeOnEachDatabase } from '../testing/service.ts';

const srcDir = new URL('..', import.meta.url).pathname;

/** The service's sources below `dir`, tests and the folders named in `skip` left out. */
function sourceFiles(dir: string, skip: readonly string[]): Array<{ path: string; text: string }> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return skip.includes(entry.name) ? [] : sourceFiles(path, skip);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [{ path, text: readFileSync(path, 'utf8') }] : [];
  });
}

test('the server imports nothing outside src/ (the Docker image holds src/ and no other sources)', () => {
  // The test harness is not in the image.
  const outside = sourceFiles(srcDir, ['testing']).flatMap(({ path, text }) =>
    [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)]
      .map((m) => join(path, '..', m[1]))
      .filter((target) => !target.startsWith(srcDir))
      .map((target) => `${path} → ${target}`),
  );
  assert.deepEqual(outside, []);
});

test('no handler casts request data: the route schemas type it', () => {
  const casts = sourceFiles(srcDir, ['testing']).flatMap(({ path, text }) =>
    [...text.matchAll(/\brequest\.(?:body|query|params|headers)\b[^;\n]*?\bas\s+[\w{(]/g)].map((m) => `${path}: ${m[0]}`),
  );
  assert.deepEqual(casts, []);
});

describeOnEachDatabase('Route paths', (service) => {
  test('every route the API documents is written literally once in the source, in one file', async () => {
    const { body: doc } = await service().request('GET', `${API_PREFIX}/openapi.json`);
    // The test harness and the dashboard's own client routes (src/web/) may repeat API paths.
    const files = sourceFiles(srcDir, ['testing', 'web']);
    const routes = Object.entries<object>(doc.paths).map(([path, operations]) => ({
      path: path.slice(API_PREFIX.length).replace(/\{(\w+)\}/g, ':$1').replace(/\{\*\}$/, '*'),
      // one definition per method; a HEAD comes with its GET
      definitions: Object.keys(operations).filter((method) => method !== 'head').length,
    }));
    assert.ok(routes.length >= 35, `found ${routes.length} paths`);
    for (const { path, definitions } of routes) {
      const places = files.filter(({ text }) => text.includes(`'${path}'`));
      assert.equal(places.length, 1, `${path} is written in ${places.length} files: ${places.map((f) => f.path).join(', ')}`);
      assert.equal(places[0].text.split(`'${path}'`).length - 1, definitions, `${path} is written once per method`);
    }
  });
});
