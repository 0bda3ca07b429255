import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { RULES } from './rules.ts';

/** Rule ids as the code writes them: a string literal `'title.…'`, `'description.…'`, `'section.…'`, `'enhance.…'`. */
const RULE_ID = /'((?:title|description|section|enhance)\.[a-z-]+)'/g;

/** The rule ids the generator's code (tests and the catalogue aside) can put in a trace. */
function emittedRuleIds(): Set<string> {
  const folder = import.meta.dirname;
  const ids = new Set<string>();
  for (const file of readdirSync(folder, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts') || file === 'rules.ts' || file.startsWith('testing')) continue;
    for (const match of readFileSync(join(folder, file), 'utf8').matchAll(RULE_ID)) ids.add(match[1]);
  }
  return ids;
}

test('every rule id the generator emits is in the catalogue, and every entry is emitted somewhere', () => {
  const emitted = [...emittedRuleIds()].sort();
  assert.deepEqual(emitted, Object.keys(RULES).sort());
});

test('each rule says what it prefers or rejects, why, and gives an example', () => {
  for (const [id, rule] of Object.entries(RULES)) {
    for (const field of ['prefers', 'why', 'example'] as const) assert.ok(rule[field].trim().length >= 10, `${id}: ${field}`);
  }
});
