// The rules a listed page's trace can name (PageTrace): for each, what it prefers or rejects, why,
// and one example. The code that applies a rule names it by its id here (RuleId), so a rule
// without an entry does not compile; rules.test.ts fails on an entry no code emits.
export interface Rule {
  /** What the rule takes, and over what (or what it rejects). */
  prefers: string;
  why: string;
  example: string;
}

const TITLE_RULES = {
  'title.meta-title': {
    prefers: 'the title the site wrote for sharing (og:title, twitter:title, a JSON-LD article’s headline) over the document’s <title>',
    why: 'it is written to stand alone, without the site’s name or the section path a <title> often carries',
    example: '<meta property="og:title" content="Writing plugins"> under <title>Writing plugins · Guides · Acme Docs</title> → "Writing plugins"',
  },
  'title.document-title': {
    prefers: 'the <title>, without the site name and separators around it (Readability’s separator rule)',
    why: 'every page has one, and it names the page rather than one of its parts',
    example: '<title>Installation | Acme Docs</title> → "Installation"',
  },
  'title.heading': {
    prefers: 'the page’s only <h1>, where the <title> is missing, a placeholder, or too short or long to be trimmed to a name',
    why: 'a <title> like "Untitled" or the bare site name names no page; the <h1> is what a reader sees first',
    example: '<title>Acme</title><h1>Configuration reference</h1> → "Configuration reference"',
  },
  'title.url': {
    prefers: 'the last segment of the URL, when the page has no usable title or heading',
    why: 'the file name is the last thing that still tells pages apart',
    example: 'https://acme.dev/docs/getting-started.html without <title> or <h1> → "Getting started"',
  },
  'title.heading-for-shared-title': {
    prefers: 'the <h1> over a title that many pages share',
    why: 'a title repeated across the site names the site or a template, not the page',
    example: 'twenty pages titled "Acme Reference" each with their own <h1> ("Parser options") → "Parser options"',
  },
  'title.url-for-shared-title': {
    prefers: 'the URL’s last segment over a shared title, when the <h1> is shared too or missing',
    why: 'a list of identical titles tells a reader nothing; the file names still differ',
    example: 'pages all titled and headed "Manual" at /manual/ch01-intro.html → "Ch01 intro"',
  },
  'title.site-name': {
    prefers: 'the site’s name as the home page’s title',
    why: 'the home page stands for the site; its own <title> is often a slogan or "Home"',
    example: 'the home page titled "Home — fast builds for everyone" on a site named Acme → "Acme"',
  },
} as const satisfies Record<`title.${string}`, Rule>;

const DESCRIPTION_RULES = {
  'description.purpose-line': {
    prefers: 'the line a reference page states its purpose in (a manual page’s NAME line, after its dash)',
    why: 'it is the page’s own one-line summary, written to be read alone',
    example: '"acme-build — compile a project from its manifest" → "Compile a project from its manifest"',
  },
  'description.meta-description': {
    prefers: 'the meta description, unless it is repeated across pages, a placeholder, or the page’s content flattened with its headings',
    why: 'an author wrote it to describe the page; a generator that copies the content into it wrote no description',
    example: '<meta name="description" content="How to install Acme on Linux, macOS and Windows."> → that sentence',
  },
  'description.paragraph': {
    prefers: 'the first paragraph that states something, cut to whole sentences (on a page written as preformatted text, its blocks of flowing sentences); rejects banners, lead-ins, fragments and text many pages share',
    why: 'a page’s opening paragraph usually says what it covers',
    example: '"The scheduler runs jobs at fixed times. It retries failed jobs twice." → both sentences',
  },
  'description.short-purpose-line': {
    prefers: 'a short stated purpose over paragraphs that only lead on to what follows',
    why: 'even a terse purpose line says what the page is; a lead-in says nothing without the list after it',
    example: '"acme-glossary - A glossary of terms" with only "The terms are:" below → "A glossary of terms"',
  },
  'description.lead-in': {
    prefers: 'a paragraph that points at what follows ("…as follows:", a question), when nothing states more',
    why: 'it is still the page’s own words, better than a list of its headings when nothing else is written',
    example: '"Are you tired of writing configuration files like this:" → that sentence',
  },
  'description.listing-comment': {
    prefers: 'the first prose of the header comment or docstring opening a source listing’s code, over its heading',
    why: 'a listing’s heading names its file ("Source code for acme.shelf") as every listing’s does; its header comment says what the file does',
    example: 'a listing opening with """Shelf builders.""" → "Shelf builders."',
  },
  'description.glossary-terms': {
    prefers: 'the first terms a glossary defines, over its first definition',
    why: 'the first definition describes one term, not the page',
    example: 'a glossary of "branch", "commit", "merge" → "Defines branch, commit and merge."',
  },
  'description.contents-entries': {
    prefers: 'the titles of the pages a contents page lists, where it has no prose of its own, leaving out the menu many pages repeat',
    why: 'a table of contents is described by what it contains; a menu on a fifth of the pages lists the site, not this page',
    example: 'a chapter page listing "Tables", "Indexes", "Views" → "Covers Tables, Indexes and Views."',
  },
  'description.headings': {
    prefers: 'the page’s section headings, leaving out its own title and noise headings',
    why: 'without a usable paragraph, the parts of a page are what it covers',
    example: 'headings "Options", "Exit status", "Examples" → "Covers Options, Exit status and Examples."',
  },
  'description.paragraph-pointing-elsewhere': {
    prefers: 'a paragraph that sends the reader elsewhere ("See …", "For more information …"), as a last resort',
    why: 'it says nothing of its page, so every other signal goes first, but it is better than nothing',
    example: '"See the configuration chapter for the available settings." → that sentence',
  },
  'description.heading': {
    prefers: 'an <h1> that says more than the title, on a page with nothing else to go by',
    why: 'the heading is the page’s last words about itself',
    example: 'title "Ch. 4", <h1> "Ch. 4: Storage engines and their trade-offs" → the <h1>',
  },
  'description.link-texts': {
    prefers: 'the texts of the page’s own links, leaving out the menu most pages repeat, file names and hashes',
    why: 'a page of links is described by where it leads',
    example: 'a page linking "Release notes", "Upgrade guide", "Roadmap" → "Covers Release notes, Upgrade guide and Roadmap."',
  },
  'description.none': {
    prefers: 'no description at all, when the page offers no usable text',
    why: 'an empty description is better than one that misleads',
    example: 'a page of images with no text, headings or links of its own → ""',
  },
} as const satisfies Record<`description.${string}`, Rule>;

const SECTION_RULES = {
  'section.navigation-group': {
    prefers: 'the caption of the group the page stands under in the sidebar most pages repeat',
    why: 'the site’s own navigation names its parts; URL folders often do not mirror it',
    example: 'a sidebar captioned "Guides" listing /setup/ and /deploy/ → section "Guides"',
  },
  'section.contents-page-group': {
    prefers: 'the entry of the site’s contents page (a home page or index whose main content is a nested list of its pages) the page falls under',
    why: 'a contents page is the site’s map when no sidebar is repeated',
    example: 'a home page listing "1. Introduction" with its sub-pages nested below → section "Introduction"',
  },
  'section.home-group': {
    prefers: 'the heading or caption the home page groups its contents entries under (not its own title over them all, not a card’s title); two groups and the home page make three sections',
    why: 'when the home page groups its links, the groups are the site’s parts',
    example: 'a home page heading "User guides" above links to four guides → section "User guides"',
  },
  'section.home-entry': {
    prefers: 'the home page’s contents entry the page’s navigation path starts from',
    why: 'each top-level entry of the home page is a part of the site',
    example: 'a page reached from the home page’s "II. The Query Language" → section "The Query Language"',
  },
  'section.sub-part': {
    prefers: 'a sub-part of a part holding more than 40% of the pages, named by its own entry',
    why: 'one section holding most of the file is no map of the site',
    example: 'a "Reference" part of 90 of 200 pages split into "Functions" and "Operators"',
  },
  'section.overview': {
    prefers: 'the overview section for pages under no part (the home page, parts of one page)',
    why: 'pages outside any part still belong near the top',
    example: 'the home page and a lone "About" page → section "Overview"',
  },
  'section.more': {
    prefers: 'one "More" section for the smallest sections, past the cap on the number of sections',
    why: 'more than 25 sections make the file hard to scan',
    example: 'thirty captioned groups → the 25 largest, then "More"',
  },
  'section.url-folder': {
    prefers: 'the page’s URL folder as its section, when the site’s navigation yields fewer than 3 sections',
    why: 'folders are the only structure left on a site without navigation',
    example: '/docs/api/client.html → section "Api"',
  },
  'section.optional': {
    prefers: 'the Optional section for low-value pages (legal, changelogs, listings) and a part’s least cited pages past its share',
    why: 'a reader with little context can skip them',
    example: 'the privacy policy and the release archive → "Optional"',
  },
} as const satisfies Record<`section.${string}`, Rule>;

const ENHANCE_RULES = {
  'enhance.ai': {
    prefers: 'the model’s title, description and section over the simple method’s',
    why: 'the model reads the page’s markdown and writes to purpose',
    example: 'a title "Ch. 4" rewritten as "Storage engines"',
  },
  'enhance.extractive': {
    prefers: 'key sentences of the page’s markdown, ranked by word frequency, over the simple description',
    why: 'the enhanced method without a model still reads the whole page',
    example: 'a page’s most representative sentence as its description',
  },
  'enhance.fallback': {
    prefers: 'the simple method’s title and description where the describer had nothing usable',
    why: 'a failed model batch or a spent token budget must not empty the file',
    example: 'a batch that timed out keeps the meta descriptions it was given',
  },
} as const satisfies Record<`enhance.${string}`, Rule>;

/** Every rule a trace can carry, by id. */
export const RULES = { ...TITLE_RULES, ...DESCRIPTION_RULES, ...SECTION_RULES, ...ENHANCE_RULES } as const;

export type RuleId = keyof typeof RULES;
export type TitleRule = keyof typeof TITLE_RULES;
export type DescriptionRule = keyof typeof DESCRIPTION_RULES;
export type SectionRule = keyof typeof SECTION_RULES;
export type EnhanceRule = keyof typeof ENHANCE_RULES;
