// Types shared across the generator core.
import type { PageFacts } from './page-facts.ts';
import type { DescriptionRule, EnhanceRule, SectionRule, TitleRule } from './rules.ts';

/** What the generator reads of a page before choosing (see readHtml). */
export interface PageReading {
  outline: PageFacts;
  /** SHA-1 (base64) of the page's HTML (see pageContentHash). */
  contentHash: string;
}

/** One fetched page, as the crawler hands it over. */
export interface PageInput {
  /** Final URL, after redirects. */
  url: string;
  /**
   * Decoded HTML, or what decodes it: a page a worker thread read (see `reading`) is decoded on
   * the event loop only if the generator wants its HTML after all.
   */
  html: string | (() => string);
  /** The sitemap's lastmod for this URL, when it had one. */
  lastModified?: string | null;
  /** The sitemap's priority for this URL (0-1), when it gave one. */
  priority?: number | null;
  /** The page's outline and hash, when the crawler made them while reading the page's links, or is making them in a worker thread. */
  reading?: PageReading | Promise<PageReading>;
  /** The markdown the site itself publishes for the page (found or being looked for): llms-full.txt takes it over the HTML's. */
  ownMarkdown?: OwnMarkdown | null | Promise<OwnMarkdown | null>;
}

/** A page's markdown copy on its site. */
export interface OwnMarkdown {
  url: string;
  markdown: string;
}

/** Who wrote a page's title and description. */
export type DescriptionSource = 'metadata' | 'extractive' | 'ai' | 'fallback';

/** A page ready to be rendered into llms.txt and llms-full.txt. */
export interface DescribedPage {
  url: string;
  title: string;
  description: string;
  /** Section chosen by the describer (enhanced mode); without it the URL path decides. */
  section?: string | null;
  /** SHA-1 (base64) of the HTML the page was generated from (see pageContentHash). */
  contentHash?: string;
  /** Importance, 0 for the most important page (the home page); llms-full.txt's budget keeps the lowest. */
  rank?: number;
  /** Main content as markdown; null when it was not read (`simple` without llms-full.txt). */
  markdown: string | null;
  /** Where llms.txt links the page, when not to the page itself (its markdown copy). */
  linkUrl?: string;
  lastModified: string | null;
  /** Low-value page (archive, legal, changelog, old version…): listed under `## Optional`. */
  optional: boolean;
  /**
   * `metadata`: the simple method's meta description or first paragraph; `extractive`: key
   * sentences from the built-in describer; `ai`: written by the model; `fallback`: the describer
   * had nothing usable (a failed model batch, a spent token budget, a page without prose), so
   * the simple title and description stand in.
   */
  source: DescriptionSource;
  /** Which rule chose the page's title, description and section (see PageTrace); never rendered. */
  trace?: PageTrace;
}

/**
 * The rules that chose what a listed page shows, by name (`title.heading`,
 * `description.meta-description`, `section.navigation-group`): `llmstxt generate --explain`
 * writes them beside the files, so a reader can tell why a line reads as it does.
 */
export interface PageTrace {
  title: TitleRule | EnhanceRule;
  description: DescriptionRule | EnhanceRule;
  section: SectionRule | EnhanceRule;
}

/** The site's header in llms.txt. */
export interface SiteSummary {
  /** Becomes the `# H1`. */
  name: string;
  /** Becomes the `> blockquote`. */
  summary: string;
  /** Optional paragraph(s) after the blockquote (no headings). */
  details?: string | null;
}

export type GenerationMethod = 'simple' | 'enhanced';
