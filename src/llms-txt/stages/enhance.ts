// Stage 9, enhance (the `enhanced` method only): the describer's titles, descriptions and
// sections over the simple ones, each traced to it ("enhance.ai", "enhance.extractive").
import { NO_USAGE, type Describer, type DescribeUsage, type PageDescription } from '../describer.ts';
import { createExtractiveDescriber } from '../extractive-describer.ts';
import type { EnhanceRule } from '../rules.ts';
import type { DescribedPage, GenerationMethod, SiteSummary } from '../types.ts';

/** What the describer wrote is traced to it. */
const ENHANCE_RULES: Record<PageDescription['source'], EnhanceRule> = { ai: 'enhance.ai', extractive: 'enhance.extractive', fallback: 'enhance.fallback' };

export interface EnhanceInput {
  site: SiteSummary;
  /** Listed pages, in sections; their fields are overwritten where the describer answered. */
  pages: DescribedPage[];
  method: GenerationMethod;
  /** The model describer; the built-in extractive describer when omitted. */
  describer?: Describer;
  siteUrl: string;
  /** The home page's language, null when it does not say. */
  language: string | null;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

export interface EnhanceOutput {
  site: SiteSummary;
  pages: DescribedPage[];
  usage: DescribeUsage;
  /** Why model batches fell back. */
  errors: string[];
}

export async function enhance({ site, pages, method, describer, siteUrl, language, signal, onProgress }: EnhanceInput): Promise<EnhanceOutput> {
  if (method !== 'enhanced') return { site, pages, usage: { ...NO_USAGE }, errors: [] };
  const toDescribe = pages.map((page) => ({ ...page, markdown: page.markdown ?? '' }));
  const result = await (describer ?? createExtractiveDescriber()).describe({ url: siteUrl, ...site, language }, toDescribe, { signal, onProgress });
  result.pages.forEach((described, index) => {
    const page = pages[index];
    const rule = ENHANCE_RULES[described.source];
    const trace = { ...page.trace! };
    if (described.title) [page.title, trace.title] = [described.title, rule];
    if (described.description) [page.description, trace.description] = [described.description, rule];
    if (described.section && !page.optional) [page.section, trace.section] = [described.section, rule];
    page.source = described.source;
    page.trace = trace;
  });
  return {
    site: { name: result.site.name || site.name, summary: result.site.summary || site.summary },
    pages,
    usage: result.usage,
    errors: result.errors,
  };
}
