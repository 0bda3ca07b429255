// What an element's class list (and id) says it is: page chrome, a navigation block, a caption, an
// aside, a glossary. Read by the page's facts (page-facts.ts) for every element it opens.

// Page chrome: repeated on every page, never part of the site's map.
const CHROME_CLASS = /(?:^|[\s_-])(?:header|footer|breadcrumbs?|related|navheader|navfooter|topbar|masthead|copyright|skip|cookie|banner|edit-?link|pager|prev|next|footnotes?)(?:$|[\s_-])/i;
const CHROME_ID = /^(?:header|footer|site-header|site-footer|masthead|breadcrumbs?|copyright|footnotes|searchbox)$/i;

/**
 * Whether an element's id names page chrome. "top" in lower case only (ids are case-sensitive):
 * Doxygen's `div#top` holds its title area and tabs, where Texinfo names each node's element after
 * the node, and its `div#Top` is the manual's home page, contents included.
 */
export const isChromeId = (id: string): boolean => id === 'top' || CHROME_ID.test(id);
// Navigation and contents blocks: their links are the site's own table of contents.
// "contents" apart: it names a table of contents, or a generator's whole content (see ClassKind.contentsOnly).
const classWords = (words: readonly string[]) => new RegExp(`(?:^|[\\s_-])(?:${words.join('|')})(?:$|[\\s_-])`, 'i');
const NAV_CLASS = classWords(['toc', 'toctree', 'nav', 'menu', 'sidebar', 'sitemap', 'biglink', 'linkdescr']);
const CONTENTS_CLASS = classWords(['contents']);
export const NAV_ID = /^(?:toc|nav|sidebar|menu)/i;
const CAPTION_CLASS = /(?:^|\s)caption(?:-text)?(?:$|\s)/;
const REFNAMEDIV_CLASS = /(?:^|\s)refnamediv(?:$|\s)/;
// Asides: "See also" boxes (pointers to other parts of the site), notes, tips and warnings (Sphinx's
// admonitions, DocBook's boxes), DocBook's legal notices: not this page's entries, nor its text. (An
// admonition of a title of its own, Django's "About this document", is the page's text; an
// epigraph may be the site's own tagline, as on Sphinx's home page: quotations are told by their marks.)
const ASIDE_CLASSES = ['seealso', 'note', 'tip', 'hint', 'important', 'warning', 'caution', 'attention', 'danger', 'legalnotice'];
const ASIDE_CLASS = new RegExp(`(?:^|\\s)(?:${ASIDE_CLASSES.join('|')})(?:$|\\s)`);
// Sphinx's glossary directive (and themes that follow it): a definition list of the site's terms.
const GLOSSARY_CLASS = /(?:^|\s)glossary(?:$|\s)/;

export interface ClassKind {
  chrome: boolean;
  nav: boolean;
  /**
   * A navigation block by the name "contents" alone: a table of contents (Texinfo's, docutils'), or
   * a page's whole content where a generator names it so (Doxygen's `div.contents`); prose in it
   * tells which (see FactsReader.endContentsBlocks).
   */
  contentsOnly: boolean;
  caption: boolean;
  refnamediv: boolean;
  aside: boolean;
  glossary: boolean;
}

export const PLAIN: ClassKind = { chrome: false, nav: false, contentsOnly: false, caption: false, refnamediv: false, aside: false, glossary: false };
// A site writes the same few class lists on every page: each is matched once, not once per element.
const classKinds = new Map<string, ClassKind>();
const MAX_CLASS_KINDS = 10_000;

// Longer lists are matched each time: a hostile page's megabyte-long class attributes stay out of memory.
const MAX_CACHED_CLASS_CHARS = 200;

// A modifier says what state or layout an element is in, not what it is: `has-sidebar` (a wrapper
// beside a sidebar), `no-footer`, `is-nav-open`, and a BEM modifier's part after `--`
// (`layout--with-toc`, whose block `layout` still counts).
const MODIFIER_CLASS = /(?:^|\s)(?:has|no|with|without|is)-\S*/gi;
const BEM_MODIFIER = /--\S*/g;

/** The class list without its modifiers (see MODIFIER_CLASS): the names that say what the element is. */
function withoutModifiers(classes: string): string {
  return classes.replace(MODIFIER_CLASS, ' ').replace(BEM_MODIFIER, '');
}

export function classKind(classes: string): ClassKind {
  if (classes === '') return PLAIN;
  let kind = classKinds.get(classes);
  if (kind === undefined) {
    kind = readKind(withoutModifiers(classes));
    if (classes.length > MAX_CACHED_CLASS_CHARS) return kind;
    if (classKinds.size >= MAX_CLASS_KINDS) classKinds.clear();
    // A copy as the key: the attribute is a slice of the page that would keep the whole page alive.
    classKinds.set(structuredClone(classes), kind);
  }
  return kind;
}

function readKind(classes: string): ClassKind {
  const navByWord = NAV_CLASS.test(classes);
  const contents = CONTENTS_CLASS.test(classes);
  return {
    chrome: CHROME_CLASS.test(classes),
    nav: navByWord || contents,
    contentsOnly: contents && !navByWord,
    caption: CAPTION_CLASS.test(classes),
    refnamediv: REFNAMEDIV_CLASS.test(classes),
    aside: ASIDE_CLASS.test(classes),
    glossary: GLOSSARY_CLASS.test(classes),
  };
}
