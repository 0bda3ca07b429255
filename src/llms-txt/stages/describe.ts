// Stage 7, describe: each listed page's title among the site's and its description from its own
// signals, each with the rule that chose it (PageTrace); its markdown, the site's own where it
// publishes one.
import { distinctDescriptions, type DescriptionSignals } from '../self-description.ts';
import { isEnglish, languageOf } from '../language.ts';
import { phrasesFor } from '../phrases.ts';
import { refineTitles } from '../site.ts';
import { isOptional, type MapNode, type SiteMap } from '../site-map.ts';
import { shorten } from '../shorten.ts';
import { isSourceListing, listingComment, preformattedProse } from '../source-listing.ts';
import { MAX_CODE_OPENING_CHARS } from '../facts-state.ts';
import { compactKey } from '../text.ts';
import type { DescribedPage, OwnMarkdown, SiteSummary } from '../types.ts';
import type { ChosenPage } from './choose.ts';
import type { SiteRepetition } from './repetition.ts';

export interface DescribeInput {
  map: SiteMap;
  chosen: readonly ChosenPage[];
  site: SiteSummary;
  repetition: SiteRepetition;
  /** llms.txt links each page to a markdown copy: the site's own, else the one this names. */
  markdownLink?: (pageUrl: string) => string;
}

/** The listed pages, in the order chosen, without their section (stage 8 places them). */
export function describePages({ map, chosen, site, repetition, markdownLink }: DescribeInput): DescribedPage[] {
  const titles = refineTitles(chosen.map((page) => page.text));
  const language = map.home ? languageOf(map.home.outline) : null;
  const english = isEnglish(language);
  const phrases = phrasesFor(language);
  const saysOnlyTheSummary = repeatsSummary(site.summary);
  const { isRepeated } = repetition;
  const descriptions = distinctDescriptions(
    chosen.map((page, index) => ({ signals: signalsOf(page, titles[index].title, { english, phrases }, repetition), listedPages: page.node.children.length })),
    (index) => (chosen[index].node === map.home ? isRepeated : (text) => isRepeated(text) || saysOnlyTheSummary(text)),
  );
  return chosen.map(({ node, candidate, markdown }, index) => {
    const isHome = node === map.home;
    return {
      url: node.url,
      title: isHome ? site.name : titles[index].title,
      description: descriptions[index].text,
      section: null,
      rank: index,
      contentHash: candidate.contentHash,
      ...markdownOf(candidate.page.ownMarkdown as OwnMarkdown | null | undefined, node.url, markdown, markdownLink),
      lastModified: candidate.page.lastModified ?? null,
      optional: isOptional(node),
      source: 'metadata',
      // The section's rule is stage 8's: URL folders until it places the page in one of the site's parts.
      trace: { title: isHome ? 'title.site-name' : titles[index].rule, description: descriptions[index].rule, section: 'section.url-folder' },
    };
  });
}

/** Whether a page reached through this one is listed by it, not by the menu that many pages repeat (which lists the site, not this page's contents). */
function listedHere(child: MapNode, repetition: SiteRepetition): boolean {
  return child.viaLink !== null && !repetition.isMenuLink(child.viaLink.text);
}

/** The site's language, as the description rules read it. */
type LanguageSignals = Pick<DescriptionSignals, 'english' | 'phrases'>;

function signalsOf({ node, text }: ChosenPage, title: string, language: LanguageSignals, repetition: SiteRepetition): DescriptionSignals {
  // A page of preformatted text is a source listing where the site counts it secondary (see
  // findSecondaryPages), else a page of the site's own, its prose in the preformatted text.
  const listing = node.secondary && isSourceListing(node.outline);
  const preformatted = !node.secondary && isSourceListing(node.outline);
  return {
    ...language,
    title,
    purposeLine: node.outline.purposeLine,
    metaDescription: text.metaDescription,
    paragraphs: [...node.outline.paragraphs, text.firstParagraph, ...(preformatted ? preformattedProse(node.outline.codeOpening, { cut: node.outline.codeOpening.length >= MAX_CODE_OPENING_CHARS }) : [])],
    childTitles: node.children.filter((child) => !child.secondary && listedHere(child, repetition)).map((child) => child.viaLink!.text),
    headings: text.headings.filter((heading) => !repetition.isTemplateHeading(heading)),
    terms: node.outline.terms,
    listingComment: listing ? listingComment(node.outline.codeOpening) : null,
    h1: node.outline.h1,
    get linkTexts() {
      return node.outline.links.map((link) => link.text).filter((text) => !repetition.isMenuLink(text));
    },
  };
}

/**
 * Whether a text, cut as a description, would be the site's summary again: the preface a summary
 * was taken from then describes itself by its other signals (its contents, its headings).
 */
function repeatsSummary(summary: string): (text: string) => boolean {
  const summaryKey = compactKey(summary);
  return (text) => summaryKey !== '' && compactKey(shorten(text)) === summaryKey;
}

/** The site's own markdown over the HTML's; linked to, with markdownLink, where there is some. */
function markdownOf(
  own: OwnMarkdown | null | undefined,
  url: string,
  extractedMarkdown: string | null,
  markdownLink: ((pageUrl: string) => string) | undefined,
): Pick<DescribedPage, 'markdown' | 'linkUrl'> {
  const markdown = own?.markdown ?? extractedMarkdown;
  const linkUrl = markdownLink && markdown ? (own?.url ?? markdownLink(url)) : undefined;
  return linkUrl === undefined ? { markdown } : { markdown, linkUrl };
}
