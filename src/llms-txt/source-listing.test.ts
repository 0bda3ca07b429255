import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readPageFacts } from './page-facts.ts';
import { isSourceListing, listingComment, preformattedProse } from './source-listing.ts';

describe('source listings', () => {
  test("a page's code opening is read with its text, entities decoded", () => {
    const html = `<html><body><div role="navigation"><h3>Site navigation</h3><ul><li><a href="/guide.html">Guide</a></li></ul></div><h1>Source code for acme.shelf</h1><div class="highlight"><pre><span class="sd">&quot;&quot;&quot;Shelf builders.&quot;&quot;&quot;</span>
<span class="kn">import</span> os
${'shelf = build(os.getcwd())\n'.repeat(20)}</pre></div></body></html>`;
    const outline = readPageFacts(html, 'https://acme.dev/_src/shelf.html');
    assert.equal(isSourceListing(outline), true);
    assert.equal(listingComment(outline.codeOpening), 'Shelf builders.');
  });

  test("the first prose of the comments opening a file, past an editor's line, a version stamp, header fields and a name's underline", () => {
    assert.equal(listingComment('# -*- coding: utf-8 -*-\n"""\n    acme.shelf\n    ~~~~~~~~~~\n\n    Shelf builders and\n    their joints.\n\n    :copyright: Acme\n"""\nimport os'), 'Shelf builders and their joints.');
    assert.equal(listingComment('# $Id: shelf.py 9045 $\n# Author: Ann <ann@acme.dev>\n\n"""This is the shelf package."""\n'), 'This is the shelf package.');
    assert.equal(listingComment('#!/usr/bin/env node\n/**\n * Reads shelves from disk.\n * @module shelf\n */\nexport const a = 1;'), 'Reads shelves from disk. @module shelf');
    assert.equal(listingComment('// Parses a shelf file.\n// Errors are thrown.\nint main() {}'), 'Parses a shelf file. Errors are thrown.');
  });

  test('no comment before the first statement: nothing', () => {
    assert.equal(listingComment('import os\n# Not the header.\n'), null);
    assert.equal(listingComment('"""\n    acme.shelf\n    ~~~~~~~~~~\n\n    :copyright: Acme\n"""'), null);
    assert.equal(listingComment('#include <stdio.h>\n'), null);
  });
});

describe('prose in preformatted text', () => {
  const page = [
    '*usr_02.txt*\tFor Vim version 9.0.  Last change: 2021 Apr 24',
    '',
    '\t\t     VIM USER MANUAL - by Bram Moolenaar',
    '',
    '\t\t\t    The first steps in Vim',
    '',
    'Editing with multiple windows and buffers.\t\t*windows* *buffers*',
    '',
    '1. reading the file into a buffer',
    '2. changing the buffer with editor commands',
    '',
    'This chapter provides just enough information to edit a file with Vim.  Not',
    'well or fast, but you can edit.',
    '',
    '\tgvim file.txt',
    '',
    'The tilde lines indicate lines not in the file.  When Vim runs out of',
    'file to display, it displays tilde lines.  At the bottom of the scr',
  ].join('\n');

  test("the paragraphs of flowing sentences, past a header line, a title, a heading with its tags, a list and an example", () => {
    assert.deepEqual(preformattedProse(page, { cut: false }), [
      'This chapter provides just enough information to edit a file with Vim.  Not well or fast, but you can edit.',
      'The tilde lines indicate lines not in the file.  When Vim runs out of file to display, it displays tilde lines.  At the bottom of the scr',
    ]);
  });

  test('an opening cut at a length ends its last paragraph at its last whole sentence', () => {
    assert.deepEqual(preformattedProse(page, { cut: true }).at(-1), 'The tilde lines indicate lines not in the file.  When Vim runs out of file to display, it displays tilde lines.');
  });
});
