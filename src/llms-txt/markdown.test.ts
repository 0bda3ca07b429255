import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DOMParser } from 'linkedom';
import TurndownService from 'turndown';
import { htmlToMarkdown, tidyMarkdown } from './markdown.ts';

function convert(html: string, base = 'https://example.com/docs/page.html'): string {
  const doc = new DOMParser().parseFromString(`<html><body><div id="root">${html}</div></body></html>`, 'text/html');
  return htmlToMarkdown(doc.getElementById('root') as unknown as HTMLElement, base);
}

test('makes links and images absolute against the base URL', () => {
  const markdown = convert('<p><a href="../api/">API</a> and <a href="#top">top</a> <img src="img/a.png" alt="A [b]"></p>');
  assert.equal(markdown, '[API](https://example.com/api/) and [top](https://example.com/docs/page.html#top) ![A b](https://example.com/docs/img/a.png)');
});

test('drops javascript: links, data: images and tracking pixels, keeping link text', () => {
  const markdown = convert('<p><a href="javascript:void(0)">Open</a> <img src="data:image/png;base64,AAAA"> <img src="/t.gif" width="1" height="1"></p>');
  assert.equal(markdown, 'Open');
});

test('encodes parentheses and spaces in link targets', () => {
  assert.equal(convert('<a href="/wiki/Foo_(bar)">Foo</a>'), '[Foo](https://example.com/wiki/Foo_%28bar%29)');
});

test('writes fenced code blocks with the language from the class names', () => {
  assert.equal(convert('<pre><code class="language-ts">const a = 1;\nconst b = 2;</code></pre>'), '```ts\nconst a = 1;\nconst b = 2;\n```');
  assert.equal(convert('<div class="highlight-python notranslate"><div class="highlight"><pre><span>print</span>(1)</pre></div></div>'), '```python\nprint(1)\n```');
  assert.equal(convert('<pre>a ``` b</pre>'), '````\na ``` b\n````');
});

test('converts data tables to GFM tables, with or without a header row', () => {
  assert.equal(
    convert('<table><thead><tr><th>Name</th><th>Type</th></tr></thead><tbody><tr><td>id</td><td>a|b</td></tr><tr><td>x</td></tr></tbody></table>'),
    '| Name | Type |\n| --- | --- |\n| id | a\\|b |\n| x | |',
  );
  assert.equal(convert('<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>'), '| a | b |\n| --- | --- |\n| c | d |');
});

test('unwraps layout tables', () => {
  assert.equal(convert('<table><tr><td><p>Just a paragraph in a layout table.</p></td></tr></table>'), 'Just a paragraph in a layout table.');
});

test('writes compact lists and atx headings, and skips empty headings and form controls', () => {
  const markdown = convert('<h2>Steps</h2><h3> </h3><ol start="3"><li>One</li><li>Two</li></ol><ul><li>Dot</li></ul><form><input value="x"><button>Go</button></form>');
  assert.equal(markdown, '## Steps\n\n3. One\n4. Two\n\n- Dot');
});

test('bounds the markdown at a paragraph boundary and closes an open code fence', () => {
  const long = `${'para one. '.repeat(20)}\n\n\`\`\`js\n${'code();\n'.repeat(50)}\`\`\`\n\nafter`;
  const tidy = tidyMarkdown(long, 300);
  assert.match(tidy, /\[…\] \(cut here: the page goes on beyond [\d,]+ characters; the rest is at its source URL\)$/);
  assert.equal((tidy.match(/^```/gm) ?? []).length % 2, 0);
});

test('drops the blanks that end a line or the text, and keeps those between words and in a line’s indent', () => {
  const text = 'a  b \t\nc\t\r\n  d \u2028e  \n\n\n\n  f\u00a0 ';
  assert.equal(tidyMarkdown(text), 'a  b\nc\r\n  d\u2028e\n\n  f');
});

test('escapes what markdown would read as syntax, as turndown does, and leaves plain text as it is', () => {
  const plain = new TurndownService();
  const texts = ['Use *args, __init__ and `ticks`', 'a [link] and a \\ backslash', '- not a list', '+ not a list', '1. not a list', '# not a heading', '> not a quote', '=== not a rule', '~~~ not a fence', 'Plain text, with (parentheses) and 100% numbers: 1.5.'];
  for (const text of texts) {
    const html = `<p>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</p>`;
    assert.equal(convert(html), plain.escape(text), text);
  }
  assert.equal(convert('<p>Use *args and __init__</p>'), 'Use \\*args and \\_\\_init\\_\\_');
  assert.equal(convert('<p>Plain text, with (parentheses) and 100% numbers: 1.5.</p>'), 'Plain text, with (parentheses) and 100% numbers: 1.5.');
});

test('resolves each page’s links against its own base URL', () => {
  assert.equal(convert('<a href="a.html">A</a>', 'https://one.example/x/'), '[A](https://one.example/x/a.html)');
  assert.equal(convert('<a href="a.html">A</a>', 'https://two.example/y/'), '[A](https://two.example/y/a.html)');
});

test('drops elements that hold only white space, however deep, and keeps text however deep', () => {
  const deep = (inner: string) => `<div><section><div><span>${inner}</span></div></section></div>`;
  assert.equal(convert(`<p>Before</p>${deep(' \n ')}<p>After</p>`), 'Before\n\nAfter');
  assert.equal(convert(`${deep(' ')}${deep(' <em>deep text</em> ')}`), '_deep text_');
  assert.equal(convert('<p>a<span> </span>b</p>'), 'a b');
  assert.equal(convert('<p><a href="/x"> </a>Link-less</p>'), 'Link-less');
});
