// The model describer: pages go to an OpenAI-compatible or Anthropic model in batches, and the
// model answers with structured output. Every failure degrades to the simple description of the
// affected pages; only cancellation (the caller's signal) rejects.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, generateText, NoObjectGeneratedError, Output, type LanguageModel } from 'ai';
import { setTimeout as sleep } from 'node:timers/promises';
import pLimit from 'p-limit';
import { z } from 'zod';
import type { Describer, DescribeOptions, DescribeResult, DescribeUsage, PageDescription, PageToDescribe, SiteToDescribe } from './describer.ts';
import { cleanSectionName } from './sections.ts';
import { buildPrompt, SYSTEM_PROMPT } from './llm-prompt.ts';
import { normalizeWhitespace, summarizeToSentences, truncateAtWord } from './text.ts';

export interface LlmDescriberOptions {
  provider: 'openai-compatible' | 'anthropic';
  /**
   * Up to and including the API version: https://api.openai.com/v1, http://127.0.0.1:11434/v1,
   * https://api.anthropic.com/v1 (Anthropic's default when omitted).
   */
  baseURL?: string;
  apiKey?: string;
  model: string;
  /** Per model call. Default 60 s. */
  timeoutMs?: number;
  /** Further attempts after a failed call (5xx, 429, timeout, malformed answer). Default 2. */
  maxRetries?: number;
  /** Delay before the first retry, doubled for each next one. Default 1000 ms. */
  retryDelayMs?: number;
  /** Tokens (input + output) one describe() may spend; no call starts that could exceed it. Default 500,000. */
  tokenBudget?: number;
  /** Pages per model call. Default 10. */
  batchSize?: number;
  /** Model calls in flight at once. Default 2. */
  concurrency?: number;
  /** Characters of each page's content sent to the model. Default 1,500. */
  maxPageChars?: number;
  /**
   * openai-compatible only: send `response_format: json_schema` (true, default) or
   * `json_object` for servers without JSON-schema support (the schema is in the prompt too).
   */
  structuredOutputs?: boolean;
}

const pageSchema = z.object({
  url: z.string(),
  title: z.string(),
  description: z.string(),
  section: z.string(),
});
const siteSchema = z.object({ name: z.string(), summary: z.string() });
const batchSchema = z.object({ pages: z.array(pageSchema) });
const batchWithSiteSchema = z.object({ site: siteSchema, pages: z.array(pageSchema) });
type BatchAnswer = z.infer<typeof batchSchema> & { site?: z.infer<typeof siteSchema> };

const TITLE_MAX_CHARS = 120;
const DESCRIPTION_MAX_CHARS = 300;
const SUMMARY_MAX_CHARS = 500;

export function createLlmDescriber(options: LlmDescriberOptions): Describer {
  const settings = {
    timeoutMs: options.timeoutMs ?? 60_000,
    maxRetries: options.maxRetries ?? 2,
    retryDelayMs: options.retryDelayMs ?? 1000,
    tokenBudget: options.tokenBudget ?? 500_000,
    batchSize: Math.max(1, options.batchSize ?? 10),
    concurrency: Math.max(1, options.concurrency ?? 2),
    maxPageChars: options.maxPageChars ?? 1500,
  };
  const model = createModel(options);
  return {
    kind: 'llm',
    describe: (site, pages, describeOptions) => new DescribeRun(model, settings, site, pages, describeOptions).run(),
  };
}

function createModel(options: LlmDescriberOptions): LanguageModel {
  if (options.provider === 'anthropic') {
    return createAnthropic({ baseURL: options.baseURL, apiKey: options.apiKey })(options.model);
  }
  if (!options.baseURL) throw new Error('An openai-compatible provider needs a baseURL');
  return createOpenAICompatible({
    name: 'llm',
    baseURL: options.baseURL,
    apiKey: options.apiKey,
    supportsStructuredOutputs: options.structuredOutputs ?? true,
  }).chatModel(options.model);
}

type Settings = Required<Pick<LlmDescriberOptions, 'timeoutMs' | 'maxRetries' | 'retryDelayMs' | 'tokenBudget' | 'batchSize' | 'concurrency' | 'maxPageChars'>>;

/** Why a call failed, and whether trying again can help. */
interface CallFailure {
  message: string;
  retry: boolean;
  /** The provider refuses us (bad key, unknown model): stop calling for this run. */
  fatal: boolean;
}

/** One describe() call: batches, a shared token budget, and the results gathered so far. */
class DescribeRun {
  private readonly usage: DescribeUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0, calls: 0, failedBatches: 0 };
  private readonly errors: string[] = [];
  private readonly described = new Map<string, PageDescription>();
  private reservedTokens = 0;
  private stopReason: string | null = null;
  private siteState: 'needed' | 'asking' | 'done' = 'needed';
  private siteAnswer: z.infer<typeof siteSchema> | null = null;
  private donePages = 0;

  private readonly model: LanguageModel;
  private readonly settings: Settings;
  private readonly site: SiteToDescribe;
  private readonly pages: readonly PageToDescribe[];
  private readonly options: DescribeOptions;

  constructor(model: LanguageModel, settings: Settings, site: SiteToDescribe, pages: readonly PageToDescribe[], options: DescribeOptions = {}) {
    this.model = model;
    this.settings = settings;
    this.site = site;
    this.pages = pages;
    this.options = options;
  }

  async run(): Promise<DescribeResult> {
    const batches: PageToDescribe[][] = [];
    for (let i = 0; i < this.pages.length; i += this.settings.batchSize) batches.push(this.pages.slice(i, i + this.settings.batchSize));
    if (batches.length === 0) batches.push([]); // the site summary alone
    const limit = pLimit(this.settings.concurrency);
    await Promise.all(batches.map((batch) => limit(() => this.describeBatch(batch))));

    const site = this.siteAnswer;
    return {
      site: site
        ? { name: site.name, summary: site.summary, source: 'ai' }
        : { name: this.site.name, summary: this.site.summary, source: 'fallback' },
      pages: this.pages.map((page) => this.described.get(page.url) ?? fallback(page)),
      usage: this.usage,
      errors: this.errors,
    };
  }

  private async describeBatch(batch: PageToDescribe[]): Promise<void> {
    const askSite = this.siteState === 'needed';
    if (askSite) this.siteState = 'asking';
    const answer = await this.call(batch, askSite);
    if (askSite) this.siteState = answer?.site && this.acceptSite(answer.site) ? 'done' : 'needed';
    if (answer) {
      const byUrl = new Map(answer.pages.map((page) => [urlKey(page.url), page]));
      for (const page of batch) {
        const written = byUrl.get(urlKey(page.url));
        const description = written && acceptPage(page, written);
        if (description) this.described.set(page.url, description);
      }
      const missing = batch.filter((page) => !this.described.has(page.url)).length;
      if (missing > 0) this.errors.push(`${missing} of ${batch.length} pages missing or unusable in the model's answer`);
    } else if (batch.length > 0) {
      this.usage.failedBatches++;
    }
    this.donePages += batch.length;
    this.options.onProgress?.(this.donePages, this.pages.length);
  }

  private acceptSite(site: z.infer<typeof siteSchema>): boolean {
    const name = normalizeWhitespace(site.name);
    const summary = normalizeWhitespace(site.summary);
    if (!name || !summary || name.length > 100) return false;
    this.siteAnswer = { name, summary: summarizeToSentences(summary, SUMMARY_MAX_CHARS) };
    return true;
  }

  /** The model's answer for a batch, after retries; null when the batch falls back. */
  private async call(batch: PageToDescribe[], askSite: boolean): Promise<BatchAnswer | null> {
    const prompt = buildPrompt(this.site, batch, askSite ? this.pages : null, this.settings.maxPageChars);
    const maxOutputTokens = 150 * batch.length + (askSite ? 300 : 0) + 200;
    const estimate = Math.ceil((SYSTEM_PROMPT.length + prompt.length) / 3) + maxOutputTokens;
    const schema = askSite ? batchWithSiteSchema : batchSchema;

    for (let attempt = 0; attempt <= this.settings.maxRetries; attempt++) {
      this.options.signal?.throwIfAborted();
      if (this.stopReason) return this.skip(this.stopReason);
      if (this.usage.totalTokens + this.reservedTokens + estimate > this.settings.tokenBudget) {
        return this.skip('token budget used up');
      }
      this.reservedTokens += estimate;
      this.usage.calls++;
      let failure: CallFailure;
      try {
        const result = await generateText({
          model: this.model,
          system: SYSTEM_PROMPT,
          prompt,
          output: Output.object({ schema, name: 'llms_txt_entries' }),
          maxOutputTokens,
          maxRetries: 0,
          abortSignal: this.callSignal(),
        });
        this.count(result.totalUsage, estimate);
        return result.output as BatchAnswer;
      } catch (error) {
        if (this.options.signal?.aborted) throw this.options.signal.reason;
        const salvaged = NoObjectGeneratedError.isInstance(error) ? salvage(error.text, schema) : null;
        this.count(NoObjectGeneratedError.isInstance(error) ? error.usage : undefined, estimate, error);
        if (salvaged) return salvaged;
        failure = classify(error);
      } finally {
        this.reservedTokens -= estimate;
      }
      this.errors.push(`attempt ${attempt + 1}: ${failure.message}`);
      if (failure.fatal) this.stopReason = failure.message;
      if (!failure.retry || attempt === this.settings.maxRetries) break;
      await sleep(this.settings.retryDelayMs * 2 ** attempt, undefined, { signal: this.options.signal }).catch(() => {
        throw this.options.signal?.reason;
      });
    }
    return null;
  }

  private skip(reason: string): null {
    if (!this.errors.includes(`skipped: ${reason}`)) this.errors.push(`skipped: ${reason}`);
    return null;
  }

  private callSignal(): AbortSignal {
    const timeout = AbortSignal.timeout(this.settings.timeoutMs);
    return this.options.signal ? AbortSignal.any([this.options.signal, timeout]) : timeout;
  }

  /** Adds a call's reported usage; a timed-out call still cost its prompt, so it counts the estimate's input part. */
  private count(usage: { inputTokens?: number; outputTokens?: number; totalTokens?: number } | undefined, estimate: number, error?: unknown): void {
    const input = usage?.inputTokens ?? (isTimeout(error) ? estimate : 0);
    const output = usage?.outputTokens ?? 0;
    this.usage.inputTokens += input;
    this.usage.outputTokens += output;
    this.usage.totalTokens += usage?.totalTokens ?? input + output;
  }
}

function fallback(page: PageToDescribe): PageDescription {
  return { url: page.url, title: page.title, description: page.description, source: 'fallback' };
}

/** The model's entry for a page, cleaned; null when its description is unusable. */
function acceptPage(page: PageToDescribe, written: z.infer<typeof pageSchema>): PageDescription | null {
  const description = normalizeWhitespace(written.description).replace(/^["“']|["”']$/g, '');
  if (description.length < 10) return null;
  const title = normalizeWhitespace(written.title);
  return {
    url: page.url,
    title: title && title.length <= TITLE_MAX_CHARS * 2 ? truncateAtWord(title, TITLE_MAX_CHARS) : page.title,
    description: summarizeToSentences(description, DESCRIPTION_MAX_CHARS),
    section: cleanSectionName(written.section),
    source: 'ai',
  };
}

/** URLs compare without fragment, trailing slash or letter case of scheme and host. */
function urlKey(url: string): string {
  try {
    const parsed = new URL(url.trim());
    parsed.hash = '';
    return parsed.href.replace(/\/$/, '');
  } catch {
    return url.trim().replace(/\/$/, '');
  }
}

/** An answer the SDK could not parse may still be JSON wrapped in a code fence or prose. */
function salvage(text: string | undefined, schema: z.ZodType): BatchAnswer | null {
  if (!text) return null;
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(text.slice(start, end + 1)));
    return parsed.success ? (parsed.data as BatchAnswer) : null;
  } catch {
    return null;
  }
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError' || (error.cause instanceof Error && error.cause.name === 'TimeoutError'));
}

function classify(error: unknown): CallFailure {
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const fatal = status === 401 || status === 403 || status === 404;
    return { message: `HTTP ${status ?? 'error'}: ${error.message.slice(0, 200)}`, retry: error.isRetryable, fatal };
  }
  if (isTimeout(error)) return { message: 'timed out', retry: true, fatal: false };
  if (NoObjectGeneratedError.isInstance(error)) return { message: 'malformed answer (not JSON of the expected shape)', retry: true, fatal: false };
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { message: message.slice(0, 200), retry: true, fatal: false };
}
