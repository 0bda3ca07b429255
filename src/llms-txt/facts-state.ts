// The state of one pass over a page (see FactsReader): the blocks the parser is inside of, the
// text and links being collected, and the bookkeeping of the links it keeps: their block, their
// nesting and the caption they sit under.
import { isMeaningfulParagraph } from './boilerplate.ts';
import type { CollectedText } from './collected-text.ts';
import { withoutPilcrow } from './collected-text.ts';
import { emptyFacts, type PageFacts } from './page-facts-model.ts';
import { resolveHref, type PendingLink } from './pending-link.ts';
import { phrasesFor } from './phrases.ts';
import { candidateText, normalizeWhitespace, trimEndOf, wordCount } from './text.ts';
import { MAX_LEAD_ITEM_WORDS, MAX_LEAD_ITEMS, MAX_LEAD_JOINED_CHARS, MIN_LEAD_ITEMS } from './tuning.ts';

export const LIST_TAGS = new Set(['ul', 'ol', 'dl']);
const MAX_LINKS = 1500;
const MAX_ITEM_CAPTION_CHARS = 60;
/** A file's header comment fits in its first lines. */
export const MAX_CODE_OPENING_CHARS = 1000;

/**
 * A lead paragraph that ends where a list begins ("In this section you will learn how to:"): its
 * place in the outline's paragraphs, the depth of the list after it once that list opens, and the
 * list's items so far; `broken` when an item is too long to be a topic.
 */
interface LeadList {
  index: number;
  depth: number | null;
  items: string[];
  broken: boolean;
}

export interface Frame {
  tag: string;
  chrome: boolean;
  nav: boolean;
  /** A navigation block by its class's "contents" alone, which prose in it makes the page's content (see ClassKind.contentsOnly). */
  contentsOnly: boolean;
  caption: boolean;
  aside: boolean;
  glossary: boolean;
  /** Links in the outline when the element opened. */
  linksBefore: number;
  /** The page's main region (`<main>`, role=main). */
  main: boolean;
  /**
   * A list item whose text captions its nested list, or a list holding an item of text alone that
   * captions the items after it: the caption before, restored when the element closes.
   */
  groupBefore?: string | null;
  /** A list item with a heading of its own in the content: the caption before that heading (see endItemHeading). */
  captionBeforeHeading?: string | null;
}

export class FactsState {
  readonly outline: PageFacts;
  /** The page's main content only (see FactsOptions.content). */
  readonly content: boolean;
  base: string;
  // The words rules match, in the page's language (its <html lang>; English until it says).
  phrases = phrasesFor(null);
  readonly stack: Frame[] = [];
  chromeDepth = 0;
  navDepth = 0;
  // Inside the main region, only navigation blocks opened there are navigation: a layout class
  // around the content ("has-sidebar") is not. -1 outside it.
  navInMain = -1;
  captionDepth = 0;
  asideDepth = 0;
  glossaryDepth = 0;
  listDepth = 0;
  itemDepth = 0;
  /** Inside a table row after a link: its other cells describe that link's page (a listing), not this page. */
  linkedRow = false;
  skipDepth = 0;
  preDepth = 0;
  // A link opening a list item is an entry of a list of links; one after text in the item is prose.
  // A label ("Models:") and the separators of a row of links ("Overview | Installation") are not
  // text (see saysSomething): the item's own texts so far, read when a link opens.
  readonly itemTexts: string[] = [];
  itemChars = 0;
  group: string | null = null;
  readonly lastAtDepth: number[] = [];
  text: CollectedText | null = null;
  jsonLd: string[] | null = null;
  readonly linkStack: PendingLink[] = [];
  awaitingPurpose: 'next-cell' | 'refname' | 'name-section' | null = null;
  refnamediv = false;
  // Headings read so far outside the chrome; past a question heading (see isAnsweredQuestion) the
  // page's paragraphs are answers.
  headingsSeen = 0;
  answering = false;
  inSynopsis = false;
  leadList: LeadList | null = null;

  /** The page's name so far (see ParagraphPlace): its <title>, else its <h1>. */
  get pageTitle(): string | null {
    return this.outline.documentTitle ?? this.outline.h1;
  }

  constructor(url: string, content: boolean) {
    this.outline = emptyFacts(url);
    this.content = content;
    this.base = url;
  }

  addLink(link: PendingLink): void {
    const outline = this.outline;
    if (this.chromeDepth > 0 || link.sequence || outline.links.length >= MAX_LINKS) return;
    if (/^\s*(?:#|javascript:|mailto:|tel:)/i.test(link.href)) return;
    const target = resolveHref(link.href, this.base);
    if (!target) return;
    const linkText = withoutPilcrow(candidateText(link.parts.join('')));
    if (!linkText || this.phrases.sequenceText.test(linkText)) return;
    // A link opening a list item or a table cell is a contents entry, unless it points into another
    // page: "math.floor()" in a table of operations, "math" opening a changelog's item.
    const crossReference = link.href.includes('#') && target !== outline.url;
    const toc = this.navDepth > 0 || (this.itemDepth > 0 && !link.afterText && this.asideDepth === 0 && !crossReference);
    const depth = toc ? Math.max(0, this.listDepth - 1) : 0;
    const parent = toc ? this.enterEntry(depth) : -1;
    const inNavigation = this.navInMain < 0 ? this.navDepth > 0 : this.navInMain > 0;
    outline.links.push({ url: target, text: linkText, block: inNavigation ? 'navigation' : toc ? 'toc' : 'content', depth, parent, group: this.group });
  }

  /** The entry a new contents entry at `depth` nests under (-1 for none); the new one is the last at its depth. */
  private enterEntry(depth: number): number {
    const lastAtDepth = this.lastAtDepth;
    let parent = -1;
    for (let d = depth - 1; d >= 0; d--) {
      if (lastAtDepth[d] !== undefined) {
        parent = lastAtDepth[d];
        break;
      }
    }
    lastAtDepth[depth] = this.outline.links.length;
    lastAtDepth.length = depth + 1;
    return parent;
  }

  /**
   * A navigation list's item of text alone ("User Guide" in mdBook's sidebar, a part title) captions
   * the entries after it in its own list, up to that list's end: the last item of a nested list (a
   * chapter not yet written) captions nothing, and the entries above that list stay its parents.
   */
  captionFromItem(): void {
    const value = normalizeWhitespace(this.itemTexts.join(''));
    if (value === '' || value.length > MAX_ITEM_CAPTION_CHARS) return;
    const list = this.stack.at(-1);
    if (list && LIST_TAGS.has(list.tag) && list.groupBefore === undefined) list.groupBefore = this.group;
    this.group = value.replace(/:$/, '');
    this.lastAtDepth.length = Math.max(0, this.listDepth - 1);
  }

  /**
   * A list item whose own text (no link) comes before a nested list captions that list's entries
   * ("Shortcodes" over its pages in a sidebar, a contents page's group of extensions), up to the
   * item's end.
   */
  captionNestedList(): void {
    const stack = this.stack;
    let item: Frame | undefined;
    for (let index = stack.length - 2; index >= 0 && !LIST_TAGS.has(stack[index].tag); index--) {
      if (stack[index].tag === 'li') {
        item = stack[index];
        break;
      }
    }
    if (!item || item.groupBefore !== undefined || item.linksBefore !== this.outline.links.length) return;
    const value = normalizeWhitespace(this.itemTexts.join(''));
    if (value === '' || value.length > MAX_ITEM_CAPTION_CHARS) return;
    item.groupBefore = this.group;
    this.group = value.replace(/:$/, '');
    // The entries above the item stay its parents; its earlier siblings do not.
    this.lastAtDepth.length = Math.max(0, this.listDepth - 1);
  }

  /** Whether the list item the parser is in has a link or text of its own so far. */
  itemHasLabel(): boolean {
    const item = this.currentItem();
    return item !== undefined && (item.linksBefore < this.outline.links.length || normalizeWhitespace(this.itemTexts.join('')) !== '');
  }

  /** The list item (`<li>`) the parser is in, inside the innermost list. */
  private currentItem(): Frame | undefined {
    const stack = this.stack;
    for (let index = stack.length - 1; index >= 0 && !LIST_TAGS.has(stack[index].tag); index--) if (stack[index].tag === 'li') return stack[index];
    return undefined;
  }

  /** A heading of the content becomes the caption; in a list item, the caption before it is kept for endItemHeading. */
  captionFromHeading(value: string): void {
    const item = this.navDepth === 0 ? this.currentItem() : undefined;
    if (item && item.captionBeforeHeading === undefined) item.captionBeforeHeading = this.group;
    this.group = value;
    this.lastAtDepth.length = 0;
  }

  /**
   * A list item's heading over one link at most ("My project isn't software." above "There are
   * licenses for that") names that item, as a card's title does: the link, and what follows the
   * item, keep the caption of the list (the heading above it). A heading over several links (a
   * reference's "Method Summary" over its table) captions them.
   */
  endItemHeading(item: Frame): void {
    const links = this.outline.links;
    if (links.length - item.linksBefore > 1) return;
    for (let index = item.linksBefore; index < links.length; index++) links[index].group = item.captionBeforeHeading!;
    this.group = item.captionBeforeHeading!;
  }

  /** A lead paragraph ending in ":" waits for the element after it. */
  awaitList(value: string): void {
    this.leadList = !this.content && value.endsWith(':') ? { index: this.outline.paragraphs.length - 1, depth: null, items: [], broken: false } : null;
  }

  /** The block after a lead paragraph: the list it introduces, or anything else, which ends the wait. */
  openAfterLead(name: string): void {
    if (name === 'ul' || name === 'ol') this.leadList!.depth = this.listDepth;
    else this.leadList = null;
  }

  /** Whether a list item opening now is an item of the list after a lead paragraph. */
  opensLeadItem(name: string): boolean {
    return name === 'li' && this.leadList !== null && this.leadList.depth === this.listDepth - 1;
  }

  addLeadItem(value: string): void {
    const lead = this.leadList!;
    if (!value || wordCount(value) > MAX_LEAD_ITEM_WORDS) lead.broken = true;
    else if (lead.items.length <= MAX_LEAD_ITEMS) lead.items.push(trimEndOf(value, '.;,'));
  }

  /**
   * The lead paragraph and the list after it become one: "In this section you will learn how to:
   * Structure your book correctly, Customize your theme." (a lead-in alone says nothing of its
   * page); the items that fit in MAX_LEAD_JOINED_CHARS, "…" for the rest.
   */
  finishLeadList(): void {
    const { index, items, broken } = this.leadList!;
    const outline = this.outline;
    this.leadList = null;
    const lead = outline.paragraphs[index];
    let shown = 0;
    let length = lead.length;
    while (shown < Math.min(items.length, MAX_LEAD_ITEMS) && length + items[shown].length + 2 <= MAX_LEAD_JOINED_CHARS) length += items[shown++].length + 2;
    if (broken || shown < MIN_LEAD_ITEMS) return;
    const joined = `${lead} ${items.slice(0, shown).join(', ')}${shown < items.length ? ', …' : '.'}`;
    outline.paragraphs[index] = joined;
    if (!outline.firstParagraph && isMeaningfulParagraph(joined, 0, this.phrases)) outline.firstParagraph = joined;
  }

  countText(data: string): void {
    const chars = data.trim().length;
    this.outline.textChars += chars;
    if (this.preDepth === 0) return;
    this.outline.codeChars += chars;
    const opening = this.outline.codeOpening;
    if (opening.length < MAX_CODE_OPENING_CHARS) this.outline.codeOpening = opening + data.slice(0, MAX_CODE_OPENING_CHARS - opening.length);
  }
}
