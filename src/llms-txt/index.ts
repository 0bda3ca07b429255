// The generator core: HTML pages in, llms.txt and llms-full.txt out. Pure functions: no HTTP
// server, no database, no crawling (the crawler hands over each page's final URL and HTML).
export type { DescribedPage, DescriptionSource, GenerationMethod, OwnMarkdown, PageInput, PageReading, PageTrace, SiteSummary } from './types.ts';

export { pageContentHash, readHtml } from './reading.ts';
export { generateLlmsTxt, type GenerateOptions, type GenerationProgress, type GenerationResult, type GenerationStats } from './generate.ts';

export { extractPage, type ExtractedPage, type ExtractOptions, type Extractor } from './extract.ts';
export { readPageFacts, type PageFacts } from './page-facts.ts';
export { findRepeatedDescriptions, isBoilerplateDescription } from './boilerplate.ts';
export { inferSite, refineTitles } from './site.ts';
export { pageText, type PageText } from './page-text.ts';

export type { DescribeOptions, DescribeResult, Describer, DescribeUsage, PageDescription, PageToDescribe, SiteToDescribe } from './describer.ts';
export { createExtractiveDescriber } from './extractive-describer.ts';

export { findOptionalPages, planSections, sectionNameForSegment, OPTIONAL_SECTION, type Section, type SectionablePage } from './sections.ts';
export { groupIntoSections, renderLlmsFullTxt, renderLlmsTxt, type FullTextOptions, type RenderOptions } from './render.ts';
export { MarkdownLines } from './repeated-lines.ts';
export { fileSize, LineCounts, loadTokenCounter, MIN_FULL_TEXT_TOKENS, rememberingCounter, TOKEN_ENCODING, type FileSize, type TokenCounter } from './tokens.ts';
