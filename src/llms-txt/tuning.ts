// The generator's thresholds and weights, in one place, by the stage that uses them (see the
// stages in generate.ts). A rule's module imports what it needs under its own short name. A change
// here is proven like a rule's: its unit tests, the golden files' diff, the quality bench.

// Read: what a page's text is.

/** Beyond this share of link text, a text (a paragraph, a page's main region) is a list of links. */
export const LINK_LIST_SHARE = 0.6;
/** A breadcrumb trail's items are names: a longer one is a phrase, and its paragraph no trail. */
export const MAX_TRAIL_ITEM_CHARS = 60;
/** A page whose navigation blocks hold this many links has a documentation layout: its marked main region is its content. */
export const MIN_LAYOUT_NAVIGATION_LINKS = 8;
/** A lead-in ("You will learn how to:") takes in the list after it when that list has this many items at least and at most, none longer than MAX_LEAD_ITEM_WORDS. */
export const MIN_LEAD_ITEMS = 2;
export const MAX_LEAD_ITEMS = 8;
export const MAX_LEAD_ITEM_WORDS = 10;
/** …and with as many of its items as fit in this many characters (a first paragraph's description is cut at 200). */
export const MAX_LEAD_JOINED_CHARS = 200;
/** Shorter descriptions than this carry too little to describe a page. */
export const MIN_DESCRIPTION_CHARS = 20;
/** A placeholder phrase ("Welcome to our website") marks a description this short as boilerplate. */
export const SHORT_PLACEHOLDER_MAX_CHARS = 80;

// Text many pages share: site-wide boilerplate, no page's own (findRepeatedDescriptions).

/** A text is repeated when this share of the pages has it… */
export const REPEATED_TEXT_SHARE = 0.2;
/** …and at least this many pages… */
export const REPEATED_TEXT_MIN_PAGES = 2;
/** …of which never more than this many are needed. */
export const REPEATED_TEXT_ENOUGH_PAGES = 5;
/** A line of page markdown llms-full.txt leaves out is on this many pages at least, and a fifth of them however many (repeated-lines.ts). */
export const REPEATED_LINE_MIN_PAGES = 3;

// Text written from one template on many pages, only names and numbers changing (templates.ts).

/** A template shared by this share of the pages is the generator's, not the page's… */
export const TEMPLATE_SHARE = 0.1;
/** …at least this many pages… */
export const TEMPLATE_MIN_PAGES = 5;
/** …never more than this many needed. */
export const TEMPLATE_ENOUGH_PAGES = 20;
/** Words a skeleton must keep for it to be a sentence's frame, not a list of names. */
export const TEMPLATE_MIN_KEPT_WORDS = 2;
/** A template's opening is enough to know it: a nested class's line only goes on longer. */
export const TEMPLATE_MAX_PARTS = 3;
/**
 * A template's text is mostly names: at least one slot for this many plain words, over the whole
 * text (prose that opens alike is not); "Definition at line 91 of file a.h." has five words to two.
 */
export const TEMPLATE_MAX_WORDS_PER_SLOT = 2.5;

// Secondary pages (secondary.ts).

/** A page whose text is this share code (in <pre>) is a source listing. */
export const SOURCE_LISTING_SHARE = 0.9;
/**
 * Source listings are at most this share of a site's pages (an API generator's one per source
 * file, beside the pages on that code); more, and the site writes its pages as preformatted text.
 */
export const MAX_SOURCE_LISTING_SITE_SHARE = 0.75;
/** A glossary defines at least this many terms… */
export const GLOSSARY_MIN_TERMS = 8;
/** …in alphabetical order: at least this share of them follow the one before. */
export const GLOSSARY_SORTED_SHARE = 0.8;
/** Headings are a glossary's terms when the page has at most this many characters of text for each. */
export const GLOSSARY_MAX_DEFINITION_CHARS = 400;

// Canonical pages and language.

/** A version's pages that repeat the current pages' paths: at least this many, and half of its pages. */
export const MIN_MIRRORED_PAGES = 3;

// Navigation tree (navigation.ts, site-map.ts).

/** A link is part of a repeated block (a sidebar) when this share of the pages carries it… */
export const NAVIGATION_SHARE = 0.1;
/** …and at least this many pages. */
export const NAVIGATION_MIN_PAGES = 3;
/** A label this share of the navigation's entries sit under (the site's name over its whole sidebar) names no part. */
export const NAVIGATION_ROOT_SHARE = 0.9;
/** A contents page lists at least this share of the site's primary pages… */
export const CONTENTS_PAGE_SHARE = 0.5;
/** …and at least this many entries. */
export const CONTENTS_PAGE_MIN_ENTRIES = 8;
/** A link in running text costs this much more than a top-level contents entry (which costs 1) on the path from the home page. */
export const PROSE_LINK_STEP = 3;

// Choose (site-map.ts's importance: lower is more important).

/** A member listed beside its owner ("Shelf.Bracket" beside "Shelf") ranks as this much further from the top. */
export const MEMBER_STEP = 1;
/** Children of one page that open alike (names aside): this many make a family… */
export const ALIKE_MIN_PAGES = 5;
/** …of which the first this many (by in-links) stand for it; the others rank as members. */
export const ALIKE_KEPT = 3;
/** The level of a page no navigation path reaches. */
export const UNREACHED_LEVEL = 20;
/** Each doubling of the pages linking to a page makes it this much more important. */
export const IN_LINK_WEIGHT = 0.4;
/** A sitemap priority of 1 makes a page this much more important than one of 0 (0.5 changes nothing). */
export const PRIORITY_WEIGHT = 2;

// Describe (self-description.ts).

/** A description is at most about this many words. */
export const DESCRIPTION_MAX_WORDS = 25;
/** A stated purpose as short as "A Git Glossary" can describe its page; shorter ones ("Intro") cannot. */
export const MIN_PURPOSE_CHARS = 12;
/** Entries, parts or terms a description names before "and more". */
export const DESCRIPTION_MAX_LISTED = 5;

// Summarize (site.ts, stages/summarize.ts).

/** Pages the home page lists first whose text naming the site may be its summary (besides pages named after the site). */
export const SUMMARY_FIRST_LEAD_PAGES = 3;

// Section (map-sections.ts).

/** A part holding more than this share of the pages gives its largest sub-parts sections of their own. */
export const SECTION_MAX_SHARE = 0.4;
/** Fewer sections than this from the navigation: URL folders instead. */
export const MIN_SECTIONS = 3;
/** More sections than this: the smallest join one "More" section at the end. */
export const MAX_SECTIONS = 25;
