// Evidence the summary and the descriptions share: text that many pages repeat, which says
// nothing of any one of them.
import { findRepeatedDescriptions, repeatedAmong, textKeys } from '../boilerplate.ts';
import type { PageFacts } from '../page-facts.ts';
import { templatedAmong } from '../templates.ts';
import type { TextKeys } from '../text-keys.ts';

export interface SiteRepetition {
  /** A paragraph or meta description many pages share (banners, footers, donation notes), or written from one template on many pages. */
  isRepeated(text: string | null | undefined): boolean;
  /** A link text on a fifth of the pages or more (the site's menu, links in its boilerplate). */
  isMenuLink(text: string): boolean;
  /** A heading a template gives many pages ("Type Parameters", "How to apply this license"): none of a page's own parts. */
  isTemplateHeading(text: string): boolean;
}

/**
 * What a page adds to the site's counts of repeated text: the keys of its texts, their skeletons
 * and its headings. Read as the page arrives (see readArrivals), while the generation waits on
 * the crawl, rather than for every page at once after it.
 */
export interface RepetitionKeys {
  texts: number[];
  skeletons: number[];
  headings: number[];
}

export function repetitionKeysOf(outline: PageFacts, keys: TextKeys): RepetitionKeys {
  // The texts a description or the summary may come from.
  const texts = [...outline.paragraphs, outline.metaDescription ?? ''];
  return { texts: textKeys(texts), skeletons: textKeys(texts.map(keys.skeleton)), headings: textKeys(outline.headings) };
}

/** The site's repetition from its pages' keys; `keys`: the job's, which they were read with. */
export function findRepetition(pages: ReadonlyArray<{ outline: PageFacts; repetition: RepetitionKeys }>, keys: TextKeys): SiteRepetition {
  const isShared = repeatedAmong(pages.map((page) => page.repetition.texts));
  // …and text written from one template on many pages, only names and numbers changing.
  const isTemplated = templatedAmong(pages.map((page) => page.repetition.skeletons), keys.skeleton);
  // Link texts name none of a page's parts ("About | Documentation | Download"). Counted only
  // when a page's links are its last signal: 5-12 ms for a 1,000-page job that most jobs do not need.
  let menuLinks: ((text: string) => boolean) | null = null;
  const isTemplateHeading = repeatedAmong(pages.map((page) => page.repetition.headings));
  return {
    isTemplateHeading,
    isRepeated: (text) => isShared(text) || (text ? isTemplated(text) : false),
    isMenuLink: (text) =>
      (menuLinks ??= findRepeatedDescriptions(pages.map(({ outline }) => outline.links.map((link) => link.text)), { minPages: 3, enoughPages: Infinity }))(text),
  };
}
