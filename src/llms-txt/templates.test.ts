import { test } from 'node:test';
import assert from 'node:assert/strict';
import { textKeys } from './boilerplate.ts';
import { frameOf, skeletonOf, templatedAmong } from './templates.ts';

/** Whether a text follows a template many of these pages' texts follow. */
const findTemplatedTexts = (pages: ReadonlyArray<readonly string[]>) => templatedAmong(pages.map((texts) => textKeys(texts.map(skeletonOf))), skeletonOf);

test('a line made of names in a fixed frame has a skeleton; prose that merely opens alike has none', () => {
  assert.equal(skeletonOf('declaration: module: org.acme.base, package: org.acme.lang, class: StringUtils'), 'declaration: module: #');
  assert.equal(skeletonOf('The modules described in this chapter provide numeric and math-related functions and data types.'), '');
  assert.equal(skeletonOf('StringUtils'), '');
});

test("a generator's sentence of a few words around a number and a name is a template: where each member is defined", () => {
  const lines = [91, 117, 52, 43, 58, 586].map((line, n) => [`Definition at line ${line} of file SDL_part${n}.h.`]);
  const isTemplated = findTemplatedTexts(lines);
  assert.equal(lines.every(([text]) => isTemplated(text)), true);
});

test('chapter pages whose first sentences open alike are not a template', () => {
  const topics = ['text processing services', 'numeric functions', 'file and directory access', 'data persistence', 'data compression', 'cryptographic services'];
  const prose = topics.map((topic) => [`The modules described in this chapter provide ${topic} for programs of every kind, with examples.`]);
  const declarations = ['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon', 'Zeta'].map((name) => [`declaration: module: org.acme, package: org.acme.util, class: ${name}`]);
  const isTemplated = findTemplatedTexts([...prose, ...declarations]);
  assert.equal(prose.some(([text]) => isTemplated(text)), false);
  assert.equal(declarations.every(([text]) => isTemplated(text)), true);
});

test('the kinds a template names after its opening are one template: a few enums beside many classes', () => {
  const classes = ['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon', 'Zeta'].map((name) => [`declaration: package: org.acme.util, class: ${name}`]);
  const lone = ['declaration: package: org.acme.util, enum: Mode', 'declaration: package: org.acme.util, annotation type: Exclude'];
  const isTemplated = findTemplatedTexts([...classes, ...lone.map((text) => [text])]);
  assert.equal(lone.every(isTemplated), true);
});

test("a sentence's capitalised first word is a word: an author's sentences that differ by one name are prose, not a template", () => {
  assert.equal(skeletonOf('A functional interface like BiConsumer that declares a Throwable.'), '');
  const sentences = ['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon', 'Zeta'].map((name) => [`A functional interface like ${name} that declares a Throwable.`]);
  const isTemplated = findTemplatedTexts(sentences);
  assert.equal(sentences.some(([text]) => isTemplated(text)), false);
});

test('a text\'s frame: its plain words once names are gone', () => {
  assert.equal(frameOf('A functional interface like BiConsumer that declares a Throwable.'), 'a functional interface like that declares a');
  assert.equal(frameOf('A fastener like Bolt that holds a Shelf.'), frameOf('A fastener like Hook that holds a Rack.'));
  assert.equal(frameOf('Shelf.Bracket, Shelf.Joint'), '');
});
