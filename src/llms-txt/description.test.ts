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

  it('passes over a paragraph that only points at the example after it, or asks', () => {
    const paragraphs = ['Are you tired of writing docstrings that look like this:', 'Much more legible, no?', 'Napoleon is an extension that enables Sphinx to parse NumPy and Google style docstrings.'];
    assert.equal(describePage({ ...signals, headings: [], paragraphs }, nothingRepeated), 'Napoleon is an extension that enables Sphinx to parse NumPy and Google style docstrings.');
    const pointer = ['For additional information on tuning these settings, see Section 30.5.', 'These settings control the write-ahead log.'];
    assert.equal(describePage({ ...signals, headings: [], paragraphs: pointer }, nothingRepeated), 'These settings control the write-ahead log.');
    // A sentence that says something before its colon is the page's description.
    const formats = ['PostgreSQL has four primary documentation formats:', 'Additionally, a number of plain-text README files can be found in the source tree.'];
    assert.equal(describePage({ ...signals, headings: [], paragraphs: formats }, nothingRepeated), 'PostgreSQL has four primary documentation formats.');
    // With nothing better after it, the lead-in is still what the page says.
    assert.equal(describePage({ ...signals, headings: [], paragraphs: ['The docutils documentation describes parsers as follows:'] }, nothingRepeated), 'The docutils documentation describes parsers as follows.');
  });

  it('takes a short stated purpose only where no paragraph describes the page', () => {
    const manualPage = { ...signals, title: 'gitglossary(7)', purposeLine: 'gitglossary - A Git Glossary', headings: ['SYNOPSIS', 'DESCRIPTION'] };
    assert.equal(describePage(manualPage, nothingRepeated), 'A Git Glossary');
    const command = { ...signals, title: 'CREATE VIEW', purposeLine: 'CREATE VIEW — define a new view', headings: [] };
    const paragraphs = ['CREATE VIEW defines a view of a query. The view is not physically materialized.'];
    assert.equal(describePage({ ...command, paragraphs }, nothingRepeated), paragraphs[0]);
    assert.equal(describePage({ ...signals, purposeLine: 'intro - Intro', headings: [] }, nothingRepeated), '');
  });

  it("passes over a module page's 'Source code:' line", () => {
    const paragraphs = ['Source code: Lib/posixpath.py (for POSIX) and Lib/ntpath.py (for Windows).', 'This module implements some useful functions on pathnames.'];
    assert.equal(describePage({ ...signals, headings: [], paragraphs }, nothingRepeated), paragraphs[1]);
  });

  it("passes over a command's usage line", () => {
    const paragraphs = ['sphinx-build [options] <sourcedir> <outputdir> [filenames …]', 'sphinx-build generates documentation from the files in <sourcedir> and places it in the <outputdir>.'];
    assert.equal(describePage({ ...signals, title: 'sphinx-build', headings: [], paragraphs }, nothingRepeated), paragraphs[1]);
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
