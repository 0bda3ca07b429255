// The generator core: HTML pages in, llms.txt and llms-full.txt out. Pure functions: no HTTP
// server, no database, no crawling (the crawler hands over each page's final URL and HTML).
export type { DescribedPage, DescriptionSource, GenerationMethod, PageInput, SiteSummary } from './types.js';

export { generateLlmsTxt, type GenerateOptions, type GenerationProgress, type GenerationResult, type GenerationStats } from './generate.js';

export { extractPage, type ExtractedPage, type ExtractOptions } from './extract.js';
export { findRepeatedDescriptions, isBoilerplateDescription } from './boilerplate.js';
export { inferSite, refineSimplePages, type SimplePage } from './site.js';

export {
  createExtractiveDescriber,
  createLlmDescriber,
  type DescribeOptions,
  type DescribeResult,
  type Describer,
  type DescribeUsage,
  type LlmDescriberOptions,
  type PageDescription,
  type PageToDescribe,
  type SiteToDescribe,
} from './describe.js';

export { findOptionalPages, planSections, sectionNameForSegment, OPTIONAL_SECTION, type Section, type SectionablePage } from './sections.js';
export { renderLlmsFullTxt, renderLlmsTxt, type RenderOptions } from './render.js';
export { createExtractorPool, type ExtractorPool } from './extract-pool.js';
