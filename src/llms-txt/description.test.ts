import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describePage, shorten } from './description.ts';

describe('shorten (a paragraph cut to a description)', () => {
  it('leaves out a last sentence that only announces what follows it', () => {
    assert.equal(shorten('A procedure is a database object similar to a function. The key differences are:'), 'A procedure is a database object similar to a function.');
    assert.equal(
      shorten('Views in PostgreSQL are implemented using the rule system. In fact, there is essentially no difference between:'),
      'Views in PostgreSQL are implemented using the rule system.',
    );
  });

  it('ends an announcing sentence that stands alone where it breaks off, not with a period after "by"', () => {
    assert.equal(shorten('Once you have created a database, you can access it by:'), 'Once you have created a database, you can access it…');
    assert.equal(shorten("The current limitations of PostgreSQL's text search features are:"), "The current limitations of PostgreSQL's text search features…");
  });

  it('ends a whole sentence that introduces an example with a period', () => {
    assert.equal(shorten('The INSERT statement is used to populate a table with rows:'), 'The INSERT statement is used to populate a table with rows.');
  });

  it('cuts a sentence longer than 25 words at a word that does not dangle', () => {
    const long = 'When you create complex database structures involving many tables with foreign key constraints, views, triggers and functions you implicitly create a net of dependencies between the objects.';
    assert.equal(shorten(long), 'When you create complex database structures involving many tables with foreign key constraints, views, triggers and functions you implicitly create a net of dependencies…');
  });
});

describe('describePage', () => {
  const nothingRepeated = () => false;
  const signals = { title: 'D.1. Supported Features', purposeLine: null, metaDescription: null, paragraphs: [], childTitles: [], h1: null, linkTexts: [] };

  it('passes over the module author and version notes Sphinx puts before a page\'s first paragraph', () => {
    const extension = { ...signals, title: 'sphinx.ext.todo', headings: [] };
    const paragraphs = ['Module author: Daniel Bültmann', 'Changed in version 2.0: Support CNAME file', 'There are two additional directives when using this extension.'];
    assert.equal(describePage({ ...extension, paragraphs }, nothingRepeated), 'There are two additional directives when using this extension.');
  });

  it('passes over a heading that is the page\'s own title', () => {
    assert.equal(describePage({ ...signals, headings: ['D.1. Supported Features', 'Core features', 'Optional features'] }, nothingRepeated), 'Covers Core features and Optional features.');
    assert.equal(describePage({ ...signals, headings: ['Supported Features'] }, nothingRepeated), '');
  });

  it('describes a page of source code by its heading, not by its "[docs]" markers', () => {
    // Sphinx's _modules pages: a title naming the module, an <h1> saying what the page is, code.
    const source = { ...signals, title: 'sphinx.builders.html', headings: [], linkTexts: ['[docs]', '[docs]', '[docs]'] };
    assert.equal(describePage({ ...source, h1: 'Source code for sphinx.builders.html' }, nothingRepeated), 'Source code for sphinx.builders.html');
    assert.equal(describePage({ ...source, h1: 'sphinx.builders.html' }, nothingRepeated), '');
    // The same <h1>, demoted to a heading of the content by Readability, is not one of the page's parts.
    const demoted = { ...source, h1: 'Source code for sphinx.builders.dummy', headings: ['Source code for sphinx.builders.dummy'] };
    assert.equal(describePage(demoted, nothingRepeated), 'Source code for sphinx.builders.dummy');
  });
});
