// The htmlparser2 handler that reads a page's facts (see readPageFacts): one class for every page,
// its state in fields (see FactsState), so no closure is made per page or per element.
import { isAnsweredQuestion, isMeaningfulParagraph, isSynopsisHeading } from './boilerplate.ts';
import { classKind, isChromeId, NAV_ID, PLAIN, type ClassKind } from './class-kinds.ts';
import { collecting, paragraphRole, dropNamelessEnd, withoutPilcrow, type CollectedText } from './collected-text.ts';
import { FactsState, LIST_TAGS } from './facts-state.ts';
import { readLinkTag, readMeta } from './head-tags.ts';
import { MAX_ITEM_CHARS, isSequenceLink, resolveHref, saysSomething, type PendingLink } from './pending-link.ts';
import { phrasesFor } from './phrases.ts';
import { candidateText, normalizeWhitespace } from './text.ts';

// Text a <div> holds outside any <p> (an API generator's class comment: "<div class=block>A set
// of characters.</div>") is a paragraph too, up to the first block element inside the <div>.
const LOOSE_SENTENCE = /^\S+(?:\s+\S+){3,}[.!?]$/;
const BLOCK_TAGS = new Set(['div', 'p', 'ul', 'ol', 'dl', 'table', 'pre', 'blockquote', 'section', 'article', 'aside', 'nav', 'header', 'footer', 'main', 'form', 'details', 'figure', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const ITEM_TAGS = new Set(['li', 'dt', 'dd', 'td', 'th']);
const HEADING = /^h[1-6]$/;
const VOID_TAGS = new Set(['br', 'img', 'meta', 'link', 'input', 'hr', 'wbr', 'area', 'base', 'col', 'embed', 'source', 'track', 'param']);
const SKIP_TEXT_TAGS = new Set(['script', 'style', 'noscript', 'template', 'svg', 'button', 'select', 'textarea']);
/** Where a `<header>` or `<footer>` belongs to the content around it, not to the page (see isPageBanner). */
const SECTIONING = new Set(['article', 'aside', 'main', 'nav', 'section']);
const MAX_PARAGRAPHS = 6;
const MAX_HEADINGS = 30;
/** A longer heading in a page's content is a sentence set as one, not a part's name. */
export const MAX_HEADING_CHARS = 120;
const MAX_TERMS = 12;
const MAX_JSON_LD_CHARS = 50_000;
const PURPOSE_LABEL = /^(?:description|summary|purpose)\s*:\s*$/i;
/** "More...", "Read more…": a link's dots are no part of what it names. */
const TRAILING_DOTS = /\s*(?:\.{2,}|…)$/;

export class FactsReader extends FactsState {
  onopentag(name: string, attrs: Record<string, string>): void {
    const outline = this.outline;
    if (SKIP_TEXT_TAGS.has(name)) this.skipDepth++;
    if (name === 'html') this.readLanguage(attrs);
    if (name === 'script' && /^\s*application\/ld\+json\s*$/i.test(attrs.type ?? '')) this.jsonLd = [];
    if (name === 'h1') outline.h1Count++;
    if (name === 'frameset') outline.frameset = true;
    if (name === 'base' && attrs.href) this.base = resolveHref(attrs.href, this.base) ?? this.base;
    if (name === 'meta') return readMeta(outline, attrs, this.base);
    if (name === 'link') return readLinkTag(outline, attrs, this.base);
    if (VOID_TAGS.has(name)) return;
    if (this.text?.kind === 'paragraph' && this.text.tag === 'div' && BLOCK_TAGS.has(name)) this.finishText();
    if (this.leadList?.depth === null && BLOCK_TAGS.has(name)) this.openAfterLead(name);
    // A class on <body> or <html> names the page's layout ("no-sidebar"), not a part of it.
    const kind = name === 'body' || name === 'html' ? PLAIN : classKind(attrs.class ?? '');
    this.openFrame(name, attrs, kind);
    if (LIST_TAGS.has(name) && this.chromeDepth === 0) this.captionNestedList();
    if (LIST_TAGS.has(name)) this.listDepth++;
    if (ITEM_TAGS.has(name)) {
      this.itemDepth++;
      this.itemTexts.length = 0;
      this.itemChars = 0;
    }
    if (kind.refnamediv) this.refnamediv = true;
    if (name === 'p' && this.navDepth > 0 && this.itemDepth === 0 && !/title/i.test(attrs.class ?? '')) this.endContentsBlocks();
    if (!this.text) this.text = this.content ? this.contentTextAt(name) : this.pageTextAt(name);
    if (name === 'a' && attrs.hreflang && this.text) this.text.switchesLanguage = true;
    if (name === 'a' && attrs.href !== undefined && this.skipDepth === 0) {
      if (this.itemDepth > 0 && this.inTableCell()) this.linkedRow = true;
      const text = this.text && { parts: this.text.parts.length, linkChars: this.text.linkChars };
      this.linkStack.push({ href: attrs.href, parts: [], afterText: this.itemDepth > 0 && saysSomething(this.itemTexts), sequence: isSequenceLink(attrs, this.phrases), text });
    }
  }

  /** A link that names nothing ("More…") is noted on the text it stands in (see dropNamelessEnd); it is still a link. */
  private closeLink(link: PendingLink): void {
    const text = this.text;
    if (text && link.text && this.phrases.namesNothing.test(normalizeWhitespace(link.parts.join('')).replace(TRAILING_DOTS, ''))) {
      text.namelessLink = { from: link.text.parts, to: text.parts.length, linkChars: link.text.linkChars };
    }
    this.addLink(link);
  }

  /**
   * A paragraph outside any list in blocks that are navigation only by the name "contents" makes
   * them the page's content (Doxygen's `div.contents` holds the whole page; a table of contents
   * holds lists and headings, not prose): from here on their links are entries or mentions as in
   * any content, and their paragraphs the page's text. A paragraph in a block that is navigation
   * by other evidence (`<nav>`, a sidebar's class) leaves every block as it is.
   */
  private endContentsBlocks(): void {
    const navs = this.stack.filter((frame) => frame.nav);
    if (!navs.every((frame) => frame.contentsOnly)) return;
    for (const frame of navs) {
      frame.nav = false;
      this.navDepth--;
      if (this.navInMain > 0) this.navInMain--;
    }
  }

  /**
   * A `<header>` or `<footer>` is the page's (its banner, its footer) unless it sits in an article,
   * a section or the main content, whose own header it is (as HTML maps them to landmarks):
   * gi-docgen heads its main section with the library's name and what it is.
   */
  private isPageBanner(name: string): boolean {
    return (name === 'header' || name === 'footer') && !this.stack.some((frame) => SECTIONING.has(frame.tag));
  }

  /**
   * A class naming chrome makes a block chrome, not a heading: gi-docgen's `h4.section-header`
   * ("Classes", "Interfaces") heads the groups of the home page's contents.
   */
  private isChromeByClass(name: string, kind: ClassKind): boolean {
    return kind.chrome && !HEADING.test(name);
  }

  /** Whether the innermost item open is a table's cell, not a list's item. */
  private inTableCell(): boolean {
    for (let index = this.stack.length - 1; index >= 0; index--) {
      const tag = this.stack[index].tag;
      if (ITEM_TAGS.has(tag)) return tag === 'td' || tag === 'th';
    }
    return false;
  }

  /** The element's frame on the stack: the blocks (chrome, navigation, caption, aside, glossary, main) it opens. */
  private openFrame(name: string, attrs: Record<string, string>, kind: ClassKind): void {
    const id = attrs.id ?? '';
    const role = attrs.role ?? '';
    const content = this.content;
    const chrome =
      !content && (this.isPageBanner(name) || role === 'banner' || role === 'contentinfo' || this.isChromeByClass(name, kind) || (id !== '' && isChromeId(id)));
    const nav = !content && (name === 'nav' || role === 'navigation' || kind.nav || (id !== '' && NAV_ID.test(id)));
    if (name === 'pre') this.preDepth++;
    // A <details> group's <summary> captions the links it folds away (Starlight's sidebar groups);
    // a <summary> elsewhere is a block like any (gi-docgen's holds a class's description).
    const caption = kind.caption || name === 'caption' || name === 'legend' || (name === 'summary' && this.stack.at(-1)?.tag === 'details');
    const main = (name === 'main' || role === 'main') && this.navInMain < 0;
    if (main) this.navInMain = 0;
    // In content, a glossary's definition list: the page's terms are read from its facts.
    const glossary = kind.glossary && (!content || name === 'dl');
    const contentsOnly = nav && kind.contentsOnly && name !== 'nav' && role !== 'navigation' && !(id !== '' && NAV_ID.test(id));
    this.stack.push({ tag: name, chrome, nav, contentsOnly, caption, aside: kind.aside, glossary, linksBefore: this.outline.links.length, main });
    if (kind.aside) this.asideDepth++;
    if (glossary) this.glossaryDepth++;
    if (chrome) this.chromeDepth++;
    if (nav) this.navDepth++;
    if (nav && this.navInMain >= 0) this.navInMain++;
    if (caption) {
      this.captionDepth++;
      if (this.captionDepth === 1 && !this.text) this.text = collecting('caption', name);
    }
  }

  /** The text to collect from an element of a page's main content (see FactsOptions.content). */
  private contentTextAt(name: string): CollectedText | null {
    if (HEADING.test(name)) return collecting('heading', name, Number(name[1]));
    if (name === 'p' && this.asideDepth === 0 && this.glossaryDepth === 0 && this.preDepth === 0 && !this.linkedRow) return collecting('paragraph', name);
    return null;
  }

  /** The text to collect from an element of a whole page. */
  private pageTextAt(name: string): CollectedText | null {
    if (this.opensLeadItem(name)) return collecting('item', name);
    if (name === 'title') return collecting('title', name);
    if (HEADING.test(name)) return collecting('heading', name, Number(name[1]));
    if (name === 'p' && this.refnamediv && !this.outline.purposeLine) return collecting('purpose', name);
    if (name === 'p' && this.awaitingPurpose === 'name-section') return collecting('purpose', name);
    if ((name === 'td' || name === 'dd') && this.awaitingPurpose === 'next-cell') return collecting('purpose', name);
    if (name === 'dt' && this.glossaryDepth > 0 && this.chromeDepth === 0) return collecting('term', name);
    if ((name === 'th' || name === 'dt') && !this.outline.purposeLine && this.chromeDepth === 0) return collecting('label', name);
    if ((name === 'p' || name === 'div') && this.chromeDepth === 0 && this.navDepth === 0 && this.itemDepth === 0 && this.asideDepth === 0) return collecting('paragraph', name);
    return null;
  }

  ontext(data: string): void {
    if (this.jsonLd) this.jsonLd.push(data);
    if (this.skipDepth > 0) return;
    if (this.chromeDepth === 0 && this.navDepth === 0) this.countText(data);
    const text = this.text;
    text?.parts.push(data);
    if (text && this.linkStack.length > 0) text.linkChars += data.trim().length;
    for (const link of this.linkStack) link.parts.push(data);
    // A caption's text (a <summary> toggle's "Submodules") is the caption's, not its item's.
    if (this.linkStack.length === 0 && this.itemDepth > 0 && this.captionDepth === 0 && this.itemChars <= MAX_ITEM_CHARS) {
      this.itemTexts.push(data);
      this.itemChars += data.length;
    }
  }

  onclosetag(name: string): void {
    if (SKIP_TEXT_TAGS.has(name)) this.skipDepth = Math.max(0, this.skipDepth - 1);
    if (name === 'pre') this.preDepth = Math.max(0, this.preDepth - 1);
    if (name === 'script' && this.jsonLd) {
      const script = this.jsonLd.join('');
      if (script.length <= MAX_JSON_LD_CHARS) this.outline.head.jsonLd.push(script);
      this.jsonLd = null;
    }
    if (VOID_TAGS.has(name)) return;
    if (name === 'a' && this.linkStack.length > 0) this.closeLink(this.linkStack.pop()!);
    if (name === 'tr' || name === 'table') this.linkedRow = false;
    if (this.text && this.text.tag === name) this.finishText();
    // Pop to the matching frame: htmlparser2 closes implied tags itself, so frames match.
    const frame = this.stack.pop();
    if (!frame) return;
    if (frame.captionBeforeHeading !== undefined) this.endItemHeading(frame);
    if (frame.groupBefore !== undefined) this.group = frame.groupBefore;
    else if (frame.tag === 'li' && this.navDepth > 0 && this.chromeDepth === 0 && frame.linksBefore === this.outline.links.length) this.captionFromItem();
    if (frame.chrome) this.chromeDepth--;
    if (frame.nav) this.navDepth--;
    if (frame.nav && this.navInMain > 0) this.navInMain--;
    if (frame.main) this.navInMain = -1;
    if (frame.caption) this.captionDepth--;
    if (frame.aside) this.asideDepth--;
    if (frame.glossary) this.glossaryDepth--;
    if (LIST_TAGS.has(frame.tag)) this.listDepth--;
    if (LIST_TAGS.has(frame.tag) && this.leadList?.depth === this.listDepth) this.finishLeadList();
    if (ITEM_TAGS.has(frame.tag)) this.itemDepth--;
  }

  private readLanguage(attrs: Record<string, string>): void {
    const outline = this.outline;
    if (attrs.lang) outline.lang = attrs.lang.toLowerCase();
    this.phrases = phrasesFor(outline.lang);
    outline.head.htmlLang = attrs.lang ?? attrs['xml:lang'] ?? null;
  }

  private finishText(): void {
    const current = this.text!;
    const outline = this.outline;
    this.text = null;
    // Past the paragraphs an outline keeps, a paragraph's text is not worth assembling (in content,
    // once the first meaningful one is found).
    if (current.kind === 'paragraph' && outline.paragraphs.length >= MAX_PARAGRAPHS && (!this.content || outline.firstParagraph)) return;
    dropNamelessEnd(current);
    const value = withoutPilcrow(candidateText(current.parts.join('')));
    switch (current.kind) {
      case 'title':
        outline.documentTitle ??= value || null;
        outline.head.documentTitle ??= value || null;
        break;
      case 'heading':
        this.finishHeading(current, value);
        break;
      case 'caption':
        // A <summary> toggle ("Submodules") in an entry that has its own name or link folds that
        // entry's children away: the entry, not the toggle, is their parent.
        if (value && !(current.tag === 'summary' && this.itemHasLabel())) {
          this.group = value.replace(/:$/, '');
          this.lastAtDepth.length = 0;
        }
        break;
      case 'term':
        if (value && outline.terms.length < MAX_TERMS) outline.terms.push(value);
        break;
      case 'label':
        this.awaitingPurpose = PURPOSE_LABEL.test(value) ? 'next-cell' : null;
        break;
      case 'purpose':
        this.awaitingPurpose = null;
        this.refnamediv = false;
        if (value && !outline.purposeLine) outline.purposeLine = value;
        break;
      case 'paragraph':
        this.finishParagraph(current, value);
        break;
      case 'item':
        if (this.leadList) this.addLeadItem(value);
        break;
    }
  }

  private finishHeading(heading: CollectedText, value: string): void {
    const outline = this.outline;
    if (!value) return;
    if (heading.level === 1) outline.h1 = outline.head.h1 ??= value;
    // A note's or a warning's heading ("Note") is no part of the page.
    else if (
      this.content ? heading.level! <= 3 && value.length <= MAX_HEADING_CHARS : (heading.level ?? 0) <= 3 && this.chromeDepth === 0 && this.asideDepth === 0
    ) {
      if (outline.headings.length < MAX_HEADINGS) outline.headings.push(value);
      if (this.navDepth === 0) outline.ownHeadings++;
    }
    if (this.chromeDepth === 0) {
      // A navigation block's heading that is all link (the site's name over its sidebar) is an
      // entry, not a caption; so is a heading inside a link (a card's title) anywhere.
      if ((this.navDepth === 0 || heading.linkChars < value.length) && this.linkStack.length === 0) this.captionFromHeading(value);
      this.answering ||= isAnsweredQuestion(value, heading.level ?? 1, this.headingsSeen++);
      this.inSynopsis = isSynopsisHeading(value);
    }
    this.awaitingPurpose = /^name$/i.test(value) && !outline.purposeLine ? 'name-section' : this.awaitingPurpose;
  }

  private finishParagraph(paragraph: CollectedText, value: string): void {
    const outline = this.outline;
    // A <div>'s own text that is not a sentence is a label, a signature or a name: "Deprecated.", "public class A extends B".
    if (paragraph.tag === 'div' && !LOOSE_SENTENCE.test(value)) return;
    if (paragraphRole(paragraph, value, this) !== 'lead') return;
    if (outline.paragraphs.length < MAX_PARAGRAPHS) {
      outline.paragraphs.push(value);
      this.awaitList(value);
    }
    if (!outline.firstParagraph && isMeaningfulParagraph(value, paragraph.linkChars, this.phrases)) outline.firstParagraph = value;
  }
}
