// Stage 6, summarize: the site's name and one-sentence summary, from what its home page and the
// pages it lists first say of the site; never text many pages share. It comes before the
// descriptions: a page whose text is the summary is described by its other signals.
import type { PageText } from '../page-text.ts';
import { isEnglish, languageOf } from '../language.ts';
import { inferSite, sectionsSummary } from '../site.ts';
import type { SiteMap } from '../site-map.ts';
import type { DescribedPage, SiteSummary } from '../types.ts';

export interface SummarizeInput {
  map: SiteMap;
  /** What each listed page says of itself. */
  texts: readonly PageText[];
  isRepeated: (text: string) => boolean;
  /** The site's URL, when no home page arrived. */
  siteUrl: string;
}

export function summarizeSite({ map, texts, isRepeated, siteUrl }: SummarizeInput): SiteSummary {
  const leadPages = (map.home?.children ?? []).filter((node) => !node.secondary).map((node) => node.outline);
  return inferSite(map.home?.url ?? siteUrl, texts, { home: map.home?.outline ?? null, leadPages, isRepeated });
}

/** After stage 8: a site that says nothing of itself is summed up by the sections its pages were put in. */
export function summarizeByParts(site: SiteSummary, pages: readonly DescribedPage[], map: SiteMap): SiteSummary {
  if (site.summary) return site;
  const english = isEnglish(map.home ? languageOf(map.home.outline) : null);
  return { ...site, summary: sectionsSummary(site.name, pages, map.home?.url, english) };
}
