// Evidence the summary and the descriptions share: text that many pages repeat, which says
// nothing of any one of them.
import { findRepeatedDescriptions } from '../boilerplate.ts';
import type { PageFacts } from '../page-facts.ts';
import { findTemplatedTexts } from '../templates.ts';

export interface SiteRepetition {
  /** A paragraph or meta description many pages share (banners, footers, donation notes), or written from one template on many pages. */
  isRepeated(text: string | null | undefined): boolean;
  /** A link text on a fifth of the pages or more (the site's menu, links in its boilerplate). */
  isMenuLink(text: string): boolean;
  /** A heading a template gives many pages ("Type Parameters", "How to apply this license"): none of a page's own parts. */
  isTemplateHeading(text: string): boolean;
}

export function findRepetition(outlines: readonly PageFacts[]): SiteRepetition {
  const pageTexts = outlines.map((outline) => [...outline.paragraphs, outline.metaDescription ?? '']);
  const isShared = findRepeatedDescriptions(pageTexts);
  // …and text written from one template on many pages, only names and numbers changing.
  const isTemplated = findTemplatedTexts(pageTexts);
  // Link texts name none of a page's parts ("About | Documentation | Download"). Counted only
  // when a page's links are its last signal: 5-12 ms for a 1,000-page job that most jobs do not need.
  let menuLinks: ((text: string) => boolean) | null = null;
  const isTemplateHeading = findRepeatedDescriptions(outlines.map((outline) => outline.headings));
  return {
    isTemplateHeading,
    isRepeated: (text) => isShared(text) || (text ? isTemplated(text) : false),
    isMenuLink: (text) =>
      (menuLinks ??= findRepeatedDescriptions(outlines.map((outline) => outline.links.map((link) => link.text)), { minPages: 3, enoughPages: Infinity }))(text),
  };
}
