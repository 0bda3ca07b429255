import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readPageFacts } from './page-facts.ts';
import { isSourceListing, listingComment } from './source-listing.ts';

describe('source listings', () => {
  test("a page's code opening is read with its text, entities decoded", () => {
    const html = `<html><body><h1>Source code for acme.shelf</h1><div class="highlight"><pre><span class="sd">&quot;&quot;&quot;Shelf builders.&quot;&quot;&quot;</span>
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
