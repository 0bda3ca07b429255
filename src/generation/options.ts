/**
 * A generation's options: one schema for the request that sets them, the answer that shows them,
 * what jobs and sites store, and the cache's "same options". A new option is one field here.
 */
import { isDeepStrictEqual } from 'node:util';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { answerShape, MaxUrls, OneOf } from '../shapes.ts';
import { PathPatternFields } from '../job-input/url-filters.ts';
import { MIN_FULL_TEXT_TOKENS, TOKEN_ENCODING, type FileSize } from '../llms-txt/index.ts';
import { RENDER_MODES } from '../crawl/index.ts';

/** The options the contract names, in its order. */
export const ContractOptionFields = {
  maxUrls: MaxUrls,
  showFullText: Type.Boolean({ default: false }),
  includeModificationDate: Type.Boolean({ default: false }),
  generationMethod: OneOf(['simple', 'enhanced'], {
    default: 'enhanced',
    description:
      "`enhanced`: page descriptions by the AI provider the service is configured with (its LLM_PROVIDER setting: openai-compatible or anthropic), at twice simple's price; without one, it runs as `simple`, at simple's price",
  }),
};

/** The options this service adds to the contract's. */
export const ExtensionOptionFields = {
  ...PathPatternFields,
  maxTokens: Type.Union(
    [
      Type.Integer({ minimum: MIN_FULL_TEXT_TOKENS, maximum: 100_000_000, description: `llms-full.txt's budget in ${TOKEN_ENCODING} tokens: the most important pages whole, the rest left out` }),
      Type.Null(),
    ],
    { default: null },
  ),
  render: OneOf(RENDER_MODES, {
    default: 'never',
    description:
      'Render pages in a browser first: `auto` those that look like an application shell (a script bundle, little text), `always` every page. Costs a credit more per 10 pages rendered',
  }),
  linkMarkdown: Type.Boolean({ default: false, description: "llms.txt links each page to a markdown copy: the site's own where it publishes one, else a copy hosted here" }),
};

export const GenerationOptionsSchema = Type.Object({ ...ContractOptionFields, ...ExtensionOptionFields });

export type GenerationOptions = Static<typeof GenerationOptionsSchema>;

/** The options as a job or a site shows them. */
export const GenerationOptionsView = answerShape(GenerationOptionsSchema);

/** Options read back from a job or a site: those stored before an option existed read as its default. */
export function readGenerationOptions(stored: unknown): GenerationOptions {
  return Value.Default(GenerationOptionsSchema, structuredClone(stored)) as GenerationOptions;
}

const OPTION_NAMES = Object.keys(GenerationOptionsSchema.properties) as Array<keyof GenerationOptions>;

/** The same options, whatever order or defaults they were written with. */
export function sameOptions(a: GenerationOptions, b: GenerationOptions): boolean {
  return OPTION_NAMES.every((name) => isDeepStrictEqual(a[name], b[name]));
}

const FileSizeView = Type.Object({ bytes: Type.Integer(), tokens: Type.Integer() });

/** A completed generation's files, in bytes and tokens; null before the first completion. */
export const FileSizesView = Type.Union([
  Type.Object({
    tokenEncoding: Type.String({ description: `the tokenizer's encoding: ${TOKEN_ENCODING}` }),
    llmsTxt: Type.Union([FileSizeView, Type.Null()]),
    llmsFullTxt: Type.Union([FileSizeView, Type.Null()]),
  }),
  Type.Null(),
]);

export interface FileSizes {
  llmsTxt: FileSize | null;
  llmsFullTxt: FileSize | null;
}

export function fileSizesView(sizes: FileSizes | null) {
  return sizes ? { tokenEncoding: TOKEN_ENCODING, ...sizes } : null;
}
