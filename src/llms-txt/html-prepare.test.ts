import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { prepareHtml, withDocumentTags } from './html-prepare.ts';

test('removes scripts, styles, templates and comments but keeps JSON-LD', () => {
  const html = [
    '<html><head><style>p { color: red }</style>',
    '<script type="application/ld+json">{"@type":"Article"}</script>',
    '<script>var s = "<p>not content</p>";</script></head>',
    '<body><!-- a comment <script> inside --><p>Kept</p><template><p>inert</p></template>',
    '<SCRIPT src="x.js"></SCRIPT><p>Also kept</p></body></html>',
  ].join('');
  const { html: prepared, truncated } = prepareHtml(html);
  assert.equal(truncated, false);
  assert.match(prepared, /application\/ld\+json/);
  assert.match(prepared, /<p>Kept<\/p>/);
  assert.match(prepared, /<p>Also kept<\/p>/);
  assert.doesNotMatch(prepared, /not content|color: red|a comment|inert|x\.js/);
});

test('empties inline SVG', () => {
  const { html } = prepareHtml('<p>a</p><svg viewBox="0 0 1 1"><path d="M0 0L1 1"/></svg><p>b</p>');
  assert.equal(html, '<p>a</p><svg></svg><p>b</p>');
});

test('an unclosed script swallows the rest of the page, as in a browser', () => {
  assert.equal(prepareHtml('<p>a</p><script>never closed <p>b</p>').html, '<p>a</p>');
  assert.equal(prepareHtml('<p>a</p><!-- never closed <p>b</p>').html, '<p>a</p>');
});

test('bounds huge pages', () => {
  const huge = `<p>${'x'.repeat(5000)}</p>`;
  const result = prepareHtml(huge, { maxParsedChars: 1000 });
  assert.equal(result.truncated, true);
  assert.equal(result.html.length, 1000);
  const raw = prepareHtml(huge, { maxRawChars: 100 });
  assert.equal(raw.truncated, true);
  assert.equal(raw.html.length, 100);
});

test('stays linear on many unclosed openers', () => {
  const hostile = '<script'.repeat(200_000);
  const started = performance.now();
  prepareHtml(hostile);
  assert.ok(performance.now() - started < 2000);
});

describe('withDocumentTags', () => {
  test('gives a page that leaves out its <html>, <head> and <body> tags all three, its head what only a head holds', () => {
    assert.equal(
      withDocumentTags('<!DOCTYPE html><meta charset=utf-8>\n<title>Guide</title><link rel=stylesheet href=a.css>\n<h1>Guide</h1><p>Text.</p>'),
      '<!DOCTYPE html><html><head><meta charset=utf-8>\n<title>Guide</title><link rel=stylesheet href=a.css>\n</head><body><h1>Guide</h1><p>Text.</p></body></html>',
    );
    assert.equal(withDocumentTags('just text'), '<!DOCTYPE html><html><head></head><body>just text</body></html>');
    assert.equal(withDocumentTags(''), '<!DOCTYPE html><html><head></head><body></body></html>');
  });

  test('keeps the attributes of the tags a page has, and leaves a page with all three as it is', () => {
    assert.equal(
      withDocumentTags('<html lang="de"><title>T</title><body class="doc"><p>Text.</p></html>'),
      '<!DOCTYPE html><html lang="de"><head><title>T</title></head><body class="doc"><p>Text.</p></body></html>',
    );
    const whole = '<html><head><title>T</title></head><body><p>Text.</p></body></html>';
    assert.equal(withDocumentTags(whole), whole);
  });
});
