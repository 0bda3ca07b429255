import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readPageFacts } from './page-facts.ts';

const facts = (title: string, body: string) =>
  readPageFacts(`<html><head><title>${title} | Acme</title></head><body><main>${body}</main></body></html>`, 'https://docs.example/api/x.html');
const SENTENCE = '<p>Creates a widget that turns the crank every second.</p>';

describe('a breadcrumb trail set as a paragraph', () => {
  test('linked items separated by "/" ending in the page\'s own name are no paragraph', () => {
    const page = facts('Function: makeWidget()', `<p><a href="../../">API Reference</a> / <a href="../">widgets</a> / makeWidget</p><h1>Function: makeWidget()</h1>${SENTENCE}`);
    assert.deepEqual(page.paragraphs, ['Creates a widget that turns the crank every second.']);
    assert.equal(page.firstParagraph, 'Creates a widget that turns the crank every second.');
  });

  test('"›" separates a trail too', () => {
    const page = facts('Install', `<p><a href="/">Guide</a> › Install</p>${SENTENCE}`);
    assert.deepEqual(page.paragraphs, ['Creates a widget that turns the crank every second.']);
  });

  test("a trail whose last item is not the page's name, or whose leading items are not links, is text", () => {
    const other = facts('Install', '<p><a href="/">Guide</a> / Setup</p>');
    assert.deepEqual(other.paragraphs, ['Guide / Setup']);
    const prose = facts('Install', '<p>Read or write / Install</p>');
    assert.deepEqual(prose.paragraphs, ['Read or write / Install']);
  });
});

describe('a list drawn in text', () => {
  test('a paragraph opening with a bullet sign is an item, not a lead', () => {
    const page = facts('Widget', `<p>• <strong>T</strong> <em>extends</em> object</p>${SENTENCE}`);
    assert.deepEqual(page.paragraphs, ['Creates a widget that turns the crank every second.']);
  });
});
