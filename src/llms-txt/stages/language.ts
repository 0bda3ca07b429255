// Stage 3, language: the pages a reader of the home page reads. The home page's language only;
// an older version's pages, archives and placeholder pages are no pages to list.
import { isPlaceholderPage } from '../boilerplate.ts';
import type { Candidate } from '../arrival.ts';
import { inLanguageOf } from '../language.ts';
import { isArchivePage, olderVersionPages } from '../sections.ts';
import { pageKey } from '../site-map.ts';

export interface LanguageInput {
  /** Every page, one candidate each, in arrival order (the start page first). */
  arrived: readonly Candidate[];
  /** The site's URL: its page is the home page. */
  siteUrl: string;
}

export interface LanguageOutput {
  /** The home page; the first arrival when no page answers at the site's URL. */
  home: Candidate | undefined;
  /** The home page and the pages to list in its language. */
  candidates: Candidate[];
}

export function selectLanguage({ arrived, siteUrl }: LanguageInput): LanguageOutput {
  // The start page arrives first: it is the home page when the site's URL itself forwarded elsewhere.
  const homeKey = pageKey(siteUrl);
  const home = arrived.find((c) => pageKey(c.outline.url) === homeKey || c.aliases.some((alias) => pageKey(alias) === homeKey)) ?? arrived[0];
  const inLanguage = inLanguageOf(home, arrived);
  // An older version's pages repeat the current ones (its entry page the home page, under the
  // same title, with the same text), an archive (by tag, author or date) lists pages listed
  // anyway, and a page of placeholder text says nothing: none of them is a page to list.
  const olderVersions = olderVersionPages(inLanguage.map((candidate) => candidate.outline.url));
  const listable = ({ outline }: Candidate) => !olderVersions.has(outline.url) && !isArchivePage(outline.url) && !isPlaceholderPage(outline);
  return { home, candidates: inLanguage.filter((candidate) => candidate === home || listable(candidate)) };
}
