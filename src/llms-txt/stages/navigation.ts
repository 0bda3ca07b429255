// Stage 4, navigation tree: the site's map from its pages' links (shortest navigation paths from
// the home page, in-links), with the pages that are secondary (legal, indexes, lists of people)
// and the listings of excerpts marked.
import type { Candidate } from '../arrival.ts';
import { findExcerptListings, findSecondaryPages } from '../secondary.ts';
import { buildSiteMap, type SiteMap } from '../site-map.ts';
import type { TextKeys } from '../text-keys.ts';

export interface NavigationInput {
  home: Candidate | undefined;
  candidates: readonly Candidate[];
  /** The map's root when no home page arrived. */
  siteUrl: string;
  /** The job's keys of its texts, made as its pages arrived. */
  keys: TextKeys;
}

export function mapSite({ home, candidates, siteUrl, keys }: NavigationInput): SiteMap {
  const outlines = candidates.map((candidate) => candidate.outline);
  const secondary = findSecondaryPages(outlines, home?.outline);
  const listings = new Set(findExcerptListings(outlines, keys.opening).filter((url) => url !== home?.outline.url));
  return buildSiteMap(
    home?.outline.url ?? siteUrl,
    candidates.map(({ outline, aliases, page }) => ({ outline, aliases, secondary: secondary.has(outline.url), listing: listings.has(outline.url), priority: page.priority })),
    keys.frame,
  );
}
