import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeByRule, describePage, distinctDescriptions } from './self-description.ts';
import { shorten } from './shorten.ts';

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

  it('keeps a sentence the text says twice once', () => {
    assert.equal(shorten('Actual type of a listener. For internal use only. For internal use only'), 'Actual type of a listener. For internal use only.');
    assert.equal(shorten('Can I write it in C? Can I write it in C++?'), 'Can I write it in C? Can I write it in C++?', 'sentences that differ in a sign are two');
  });

  it('leaves out a greeting before what the text says', () => {
    assert.equal(shorten('Welcome! This is the official documentation for Python 3.11.2.'), 'This is the official documentation for Python 3.11.2.');
    assert.equal(shorten('Welcome!'), 'Welcome!', 'a greeting alone is left as it is');
  });

  it('leaves out where a tutorial resumes before what it covers', () => {
    assert.equal(
      shorten('This tutorial begins where Tutorial 1 left off. We’ll setup the database, create your first model, and get a quick introduction to the admin site.'),
      'We’ll setup the database, create your first model, and get a quick introduction to the admin site.',
    );
    assert.equal(shorten('This tutorial begins where Tutorial 6 left off.'), 'This tutorial begins where Tutorial 6 left off.', 'alone, it is left as it is');
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
  const signals = { title: 'D.1. Supported Features', purposeLine: null, metaDescription: null, paragraphs: [], childTitles: [], terms: [], h1: null, linkTexts: [] };

  it("passes over a manual's copyright and licence notices (Texinfo's title page) to what the manual is", () => {
    const paragraphs = [
      'Copyright © 1996-2022 The Octave Project Developers',
      'Permission is granted to make and distribute verbatim copies of this manual provided the copyright notice and this permission notice are preserved on all copies.',
      'This manual documents how to run, install and port the program, and how to report bugs.',
    ];
    assert.equal(describePage({ ...signals, title: 'The Manual', headings: [], paragraphs }, nothingRepeated), 'This manual documents how to run, install and port the program, and how to report bugs.');
  });

  it("passes over an epigraph, its source on a line of its own, and a licence's distribution notice to what the chapter is", () => {
    const paragraphs = [
      'Distributed under the Acme Software License, Version 1.0. (See the accompanying file LICENSE_1_0.txt.)',
      'Use, modification and distribution is subject to the Acme Software License, Version 1.0.',
      '“Why program by hand in five days what you can spend five years of your life automating?”',
      '-- Terrence Parr, author of a parser generator',
      '“It is better to be approximately right than exactly wrong.” -- Old adage',
      'Acme.Accumulators is a library for incremental statistical computation.',
    ];
    assert.equal(describePage({ ...signals, title: 'Chapter 1. Acme.Accumulators', headings: [], paragraphs }, nothingRepeated), 'Acme.Accumulators is a library for incremental statistical computation.');
  });

  it('keeps a sentence that opens with a quoted name', () => {
    const paragraphs = ['“Shelf” is the name of the container every widget is stored in.'];
    assert.equal(describePage({ ...signals, title: 'Shelves', headings: [], paragraphs }, nothingRepeated), paragraphs[0]);
  });

  it('passes over the module author and version notes Sphinx puts before a page\'s first paragraph', () => {
    const extension = { ...signals, title: 'sphinx.ext.todo', headings: [] };
    const paragraphs = ['Module author: Daniel Bültmann', 'Changed in version 2.0: Support CNAME file', 'There are two additional directives when using this extension.'];
    assert.equal(describePage({ ...extension, paragraphs }, nothingRepeated), 'There are two additional directives when using this extension.');
  });

  it("does not list the names of an API page's members as its parts: its pointer to a guide says more", () => {
    const group = { ...signals, title: 'Mouse buttons', paragraphs: ['See mouse button input for how these are used.'] };
    const members = ['Macros', '◆ KEY_BUTTON_1', '◆ KEY_BUTTON_2', '◆ KEY_BUTTON_3', 'accept', 'valueOf'];
    assert.equal(describePage({ ...group, headings: members }, nothingRepeated), 'See mouse button input for how these are used.');
    assert.equal(describePage({ ...group, headings: ['Installation', 'Configuration', 'Usage'] }, nothingRepeated), 'Covers Installation, Configuration and Usage.', 'words of prose are parts');
  });

  it('describes a tutorial by what it walks through, not by the one line that sets off', () => {
    const tutorial = { ...signals, title: 'Writing your first Django app, part 1', headings: [] };
    const walkThrough = 'Throughout this tutorial, we’ll walk you through the creation of a basic poll application.';
    assert.equal(describePage({ ...tutorial, paragraphs: ['Let’s learn by example.', walkThrough] }, nothingRepeated), walkThrough);
    assert.equal(describePage({ ...tutorial, paragraphs: ['This tutorial begins where Tutorial 6 left off.', walkThrough] }, nothingRepeated), walkThrough);
    assert.equal(describePage({ ...tutorial, paragraphs: ['Let’s learn by example.'] }, nothingRepeated), 'Let’s learn by example.', 'with nothing else to say, it is said');
    const review = "Let's review the basic network infrastructure on the modern Debian system.";
    assert.equal(describePage({ ...tutorial, paragraphs: [review, walkThrough] }, nothingRepeated), review, 'one that says what it sets off to do describes its page');
  });

  it('sums up a page of questions by the topics that group them, or by its first questions', () => {
    const faq = { ...signals, title: 'Programming FAQ' };
    const grouped = ['General Questions', 'Is there a source code level debugger?', 'Core Language', 'Why am I getting an UnboundLocalError?', 'Numbers and strings', 'How do I specify hexadecimal integers?', 'Why does -22 // 10 return -3?'];
    assert.equal(describePage({ ...faq, headings: grouped }, nothingRepeated), 'Covers General Questions, Core Language and Numbers and strings.');
    const questions = ['How do I run a Python program under Windows?', 'How do I make Python scripts executable?', 'Is a *.pyd file the same as a DLL? (And other DLL questions)'];
    assert.equal(describePage({ ...faq, headings: questions }, nothingRepeated), 'How do I run a Python program under Windows? How do I make Python scripts executable? Is a *.pyd file the same as a DLL?');
    // A few questions among a page's parts are parts like the others.
    assert.equal(describePage({ ...faq, headings: ['Installing', 'Why a virtual environment?', 'Upgrading'] }, nothingRepeated), 'Covers Installing, Why a virtual environment? and Upgrading.');
  });

  it('describes a glossary without a lead paragraph by the terms it defines', () => {
    const glossary = { ...signals, title: 'Glossary', headings: [] };
    const terms = ['>>>', '...', '2to3', 'abstract base class', 'annotation', 'argument', 'asynchronous context manager', 'asynchronous generator'];
    assert.equal(describePage({ ...glossary, terms }, nothingRepeated), 'Defines 2to3, abstract base class, annotation, argument and asynchronous context manager, and more.');
    const lead = 'This is a list of terms and their meaning in the context of PostgreSQL.';
    assert.equal(describePage({ ...glossary, terms, paragraphs: [lead] }, nothingRepeated), lead);
  });

  it('passes over a setting\'s "Default:" line', () => {
    const paragraphs = ["Default: '' (Empty string)", 'Here’s a list of settings available in Django core and their default values.'];
    assert.equal(describePage({ ...signals, title: 'Settings', headings: [], paragraphs }, nothingRepeated), paragraphs[1]);
  });

  it('passes over a sidebar\'s "Last update:" heading', () => {
    assert.equal(describePage({ ...signals, title: 'Generic views', headings: ['Last update:'], linkTexts: ['Built-in class-based views API'] }, nothingRepeated), 'Covers Built-in class-based views API.');
  });

  it('passes over a paragraph that goes on from an earlier one, or sends the reader elsewhere', () => {
    const paragraphs = ['This allows Python users to share and collaborate effectively.', 'For details on how to add your own checks, see the topic guide.', 'This guide covers the distribution part of the process.'];
    assert.equal(describePage({ ...signals, headings: [], paragraphs }, nothingRepeated), 'This guide covers the distribution part of the process.');
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

  it('passes over the rest of a sentence that a quotation interrupted', () => {
    const paragraphs = ['and asked for help recovering from this situation.', 'Reverting a merge undoes the changes the merge brought, not its history.'];
    assert.equal(describePage({ ...signals, headings: [], paragraphs }, nothingRepeated), paragraphs[1]);
  });

  it('describes a page by a later paragraph, or by its parts, rather than by a lead-in it would cut short or a pointer elsewhere', () => {
    const module = { ...signals, title: 'string — Common string operations', headings: ['String constants', 'Custom String Formatting', 'Template strings'] };
    const leadIn = 'The constants defined in this module are:';
    assert.equal(describePage({ ...module, paragraphs: [leadIn] }, nothingRepeated), 'Covers String constants, Custom String Formatting and Template strings.');
    const later = 'The built-in string class provides the ability to do complex variable substitutions and value formatting.';
    assert.equal(describePage({ ...module, paragraphs: [leadIn, later] }, nothingRepeated), later);
    assert.equal(describePage({ ...module, headings: [], paragraphs: [leadIn] }, nothingRepeated), 'The constants defined in this module…', 'with nothing else to go by');
    const pointer = { ...signals, headings: ['Connection Settings', 'Authentication', 'SSL'], paragraphs: ['See Section 19.9 for more information about setting up SSL.'] };
    assert.equal(describePage(pointer, nothingRepeated), 'Covers Connection Settings, Authentication and SSL.');
    // PostgreSQL's runtime-config-connection.html: the pointer opens a paragraph about one of the page's parts.
    const opening = 'See Section 19.9 for more information about setting up SSL. The configuration parameters for controlling transfer encryption using TLS protocols are named ssl for historic reasons.';
    assert.equal(describePage({ ...pointer, paragraphs: [opening] }, nothingRepeated), 'Covers Connection Settings, Authentication and SSL.');
    // Sphinx's extension tutorials: the tutorials it lists say what it holds.
    const tutorials = { ...signals, headings: [], childTitles: ['Developing a “Hello world” extension', 'Developing a “TODO” extension'], paragraphs: ['Refer to the following tutorials to get started with extension development.'] };
    assert.equal(describePage(tutorials, nothingRepeated), 'Covers Developing a “Hello world” extension and Developing a “TODO” extension.');
  });

  it("prefers a page's short stated purpose to a paragraph that introduces a list", () => {
    const format = { ...signals, title: 'gitformat-index(5)', headings: [], paragraphs: ['The remaining data of each directory block is grouped by type:'] };
    assert.equal(describePage({ ...format, purposeLine: 'gitformat-index - Git index format' }, nothingRepeated), 'Git index format');
    assert.equal(describePage({ ...format, purposeLine: null }, nothingRepeated), 'The remaining data of each directory block is grouped by type.');
    const stated = ['The Git pack format is how Git stores most of its primary repository data.'];
    assert.equal(describePage({ ...format, purposeLine: 'gitformat-pack - Git pack format', paragraphs: stated }, nothingRepeated), stated[0]);
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

  it("describes a source listing by its header comment, over its heading", () => {
    const listing = { ...signals, title: 'acme.shelf', headings: [], h1: 'Source code for acme.shelf', listingComment: 'Shelf builders and their joints.' };
    assert.equal(describeByRule(listing, nothingRepeated).text, 'Shelf builders and their joints.');
    assert.equal(describeByRule(listing, nothingRepeated).rule, 'description.listing-comment');
    assert.equal(describePage({ ...listing, listingComment: 'Builds rack files.' }, nothingRepeated), 'Builds rack files.', 'terse, as a stated purpose is');
    assert.equal(describePage({ ...listing, listingComment: null }, nothingRepeated), 'Source code for acme.shelf');
  });

  it('names a page by its links only when they name something: not by check-ins, file names or "More information"', () => {
    // SQLite's release notes: lists of changes, each linking the feature it is about or the commit that made it.
    const release = { ...signals, title: 'SQLite Release 3.6.0 On 2008-07-16', headings: [] };
    const linkTexts = ['virtual file system', '2df0107b', '35to36.html', 'sqlite3_config()', 'More information', '1ec41379c9c1e400'];
    assert.equal(describePage({ ...release, linkTexts }, nothingRepeated), 'Covers virtual file system and sqlite3_config().');
    assert.equal(describePage({ ...release, linkTexts: ['7b3328086a5c116c', 'More information'] }, nothingRepeated), '');
    // A Texinfo index page: its navigation buttons and letter jumps before its entries.
    const index = { ...signals, title: 'General Index', headings: [] };
    assert.equal(describePage({ ...index, linkTexts: ['<<', '?', '_', 'A', 'B', 'msgfmt', 'msgmerge'] }, nothingRepeated), 'Covers msgfmt and msgmerge.');
  });
});

describe('distinctDescriptions', () => {
  const base = { title: 'Page', purposeLine: null, metaDescription: null, childTitles: [], headings: [], terms: [], h1: null, linkTexts: [] };
  const opening = 'A model is the single, definitive source of information about your data.';
  it('leaves a shared description to the page that lists fewest others; the rest are described without it', () => {
    const models = { signals: { ...base, title: 'Models', paragraphs: [opening, 'Each model maps to a single database table.'] }, listedPages: 0 };
    const index = { signals: { ...base, title: 'Models and databases', paragraphs: [opening], childTitles: ['Models', 'Making queries', 'Aggregation'] }, listedPages: 3 };
    assert.deepEqual(distinctDescriptions([index, models], () => () => false).map(({ text }) => text), ['Covers Models, Making queries and Aggregation.', opening]);
  });

  it('keeps a shared description where a page has no other', () => {
    const twin = { signals: { ...base, paragraphs: [opening] }, listedPages: 0 };
    assert.deepEqual(distinctDescriptions([twin, twin], () => () => false).map(({ text }) => text), [opening, opening]);
  });
});

describe('a meta description cut from the content', () => {
  const signals = (metaDescription: string, headings: string[], paragraph: string) => ({
    title: 'Getting started',
    purposeLine: null,
    metaDescription,
    paragraphs: [paragraph],
    childTitles: [],
    headings,
    terms: [],
    h1: 'Getting started',
    linkTexts: [],
  });

  it('gives way to the first paragraph when it runs through the page headings', () => {
    const excerpt = 'Getting started # Install the tool # Download the archive for your system and unpack it. Run the setup # The setup asks two questions.';
    const page = signals(excerpt, ['Install the tool', 'Run the setup'], 'Download the archive for your system and unpack it.');
    assert.equal(describePage(page, () => false), 'Download the archive for your system and unpack it.');
  });

  it('gives way when it opens with a heading run on into the text below it', () => {
    const page = signals('Install the tool # Download the archive for your system and unpack it.', ['Install the tool'], 'Download the archive for your system and unpack it first.');
    assert.equal(describePage(page, () => false), 'Download the archive for your system and unpack it first.');
    const oneWord = signals('Introduction # This tutorial shows how to build a shelf.', ['Introduction'], 'This tutorial shows how to build a shelf of widgets.');
    assert.equal(describePage(oneWord, () => false), 'This tutorial shows how to build a shelf of widgets.');
    const authored = signals('Getting started with Acme takes five minutes.', ['Getting started'], 'Download the archive.');
    assert.equal(describePage(authored, () => false), 'Getting started with Acme takes five minutes.');
  });

  it('gives way to the paragraph it was cut from, mid-sentence, which goes on', () => {
    const cut = signals('Opaque types in Acme have', [], 'Opaque types in Acme have an unknown size and alignment. They are used for type safety.');
    assert.equal(describePage(cut, () => false), 'Opaque types in Acme have an unknown size and alignment. They are used for type safety.');
    const whole = signals('Opaque types have an unknown size.', [], 'Opaque types have an unknown size. They are used for type safety.');
    assert.equal(describePage(whole, () => false), 'Opaque types have an unknown size.', 'a whole sentence is the author’s choice');
  });

  it('stays when it names words of the headings, as an author’s description does', () => {
    const meta = 'Installation instructions on Linux, Windows and macOS.';
    const page = signals(meta, ['Linux', 'Windows', 'macOS'], 'Download the archive for your system and unpack it.');
    assert.equal(describePage(page, () => false), meta);
  });
});

describe("an API page's signature", () => {
  const signals = (title: string, paragraphs: string[]) => ({ title, purposeLine: null, metaDescription: null, paragraphs, childTitles: [], terms: [], h1: null, linkTexts: [], headings: [] });
  const nothingRepeated = () => false;

  it('gives way to the sentence below it that says what the member does', () => {
    const page = signals('Function: getWidget()', ['getWidget(id): undefined | Widget', 'Returns the widget of this id, if there is one.']);
    assert.equal(describePage(page, nothingRepeated), 'Returns the widget of this id, if there is one.');
    const alias = signals('Type Alias: Handler<T>', ['Handler<T>: (event: T) => void', 'A function called on each event of the widget.']);
    assert.equal(describePage(alias, nothingRepeated), 'A function called on each event of the widget.');
  });

  it('still describes a page that has nothing else to say', () => {
    assert.equal(describePage(signals('Function: getWidget()', ['getWidget(id): undefined | Widget']), nothingRepeated), 'getWidget(id): undefined | Widget');
  });

  it("is no declaration when it names something else, or opens a sentence", () => {
    assert.equal(describePage(signals('Widgets', ['Widgets: a widget turns the crank of the machine.', 'Other text of the page here.']), nothingRepeated), 'Widgets: a widget turns the crank of the machine.');
    assert.equal(describePage(signals('Install', ['setup(options) prepares the widget for the machine.', 'Other text.']), nothingRepeated), 'setup(options) prepares the widget for the machine.');
  });
});
