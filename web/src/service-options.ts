/**
 * What the service's start requests take, as the service declares it: each field's default and
 * limits, read from its OpenAPI document. The one place the dashboard learns them, so no form
 * restates a server default by hand (when the service changes one, the forms follow).
 */
import { OPENAPI_PATH } from '../../src/http/paths.ts';
import type { paths } from './api.ts';

/** The body of POST /generate (and of its estimate). */
export type GenerateBody = paths['/api/v1/generate']['post']['requestBody']['content']['application/json'];
export type GenerationMethod = NonNullable<NonNullable<GenerateBody['options']>['generationMethod']>;
export type RenderMode = NonNullable<NonNullable<GenerateBody['options']>['render']>;

interface FieldSchema {
  default?: unknown;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  description?: string;
  anyOf?: FieldSchema[];
  properties?: Record<string, FieldSchema>;
}

/** A whole number's default and bounds. */
export interface Bounds {
  default: number;
  minimum: number;
  maximum: number;
}

export interface GenerationOptionSchema {
  maxUrls: Bounds;
  generationMethod: { default: GenerationMethod };
  showFullText: { default: boolean };
  /** llms-full.txt's token budget: none by default (null) */
  maxTokens: Omit<Bounds, 'default'> & { description: string };
  includePaths: { description: string };
  render: { default: RenderMode; values: RenderMode[]; description: string };
  linkMarkdown: { default: boolean; description: string };
}

export interface DiscoveryOptionSchema {
  maxUrls: Bounds;
  discoveryType: { default: 'full' | 'sitemap' | 'crawl' };
}

/** The field's own numbers, or those of its first alternative that has some (`integer | null`). */
function numeric(field: FieldSchema): FieldSchema {
  return field.anyOf?.find((f) => f.minimum !== undefined) ?? field;
}

/** A description as plain text: the document's are Markdown, with `code` marks. */
const plain = (description: string | undefined) => (description ?? '').replace(/`/g, '');

/** The values a field allows: its enum, or each alternative's (`OneOf` lists them as `anyOf`). */
const choices = (field: FieldSchema) => field.enum ?? (field.anyOf ?? []).flatMap((f) => f.enum ?? []);

function bounds(field: FieldSchema): Bounds {
  const { minimum, maximum } = numeric(field);
  return { default: Number(field.default), minimum: minimum!, maximum: maximum! };
}

let loading: Promise<{ paths: Record<string, { post: { requestBody: { content: { 'application/json': { schema: FieldSchema } } } } }> }> | null = null;

/** The request body's fields of a POST route. The document is fetched once per page load; a failed fetch is tried again by the next caller. */
async function bodyFields(path: string): Promise<Record<string, FieldSchema>> {
  loading ??= fetch(OPENAPI_PATH)
    .then((response) => {
      if (!response.ok) throw new Error(`The form's settings could not be loaded (${response.status}). Please reload the page.`);
      return response.json();
    })
    .catch((err) => {
      loading = null;
      throw err;
    });
  return (await loading).paths[path]!.post.requestBody.content['application/json'].schema.properties!;
}

export async function generationOptionSchema(): Promise<GenerationOptionSchema> {
  const options = (await bodyFields('/api/v1/generate')).options!.properties!;
  const maxTokens = numeric(options.maxTokens!);
  return {
    maxUrls: bounds(options.maxUrls!),
    generationMethod: { default: options.generationMethod!.default as GenerationMethod },
    showFullText: { default: options.showFullText!.default === true },
    maxTokens: { minimum: maxTokens.minimum!, maximum: maxTokens.maximum!, description: plain(maxTokens.description) },
    includePaths: { description: plain(options.includePaths!.description) },
    render: { default: options.render!.default as RenderMode, values: choices(options.render!) as RenderMode[], description: plain(options.render!.description) },
    linkMarkdown: { default: options.linkMarkdown!.default === true, description: plain(options.linkMarkdown!.description) },
  };
}

export async function discoveryOptionSchema(): Promise<DiscoveryOptionSchema> {
  const fields = await bodyFields('/api/v1/discovery');
  return { maxUrls: bounds(fields.maxUrls!), discoveryType: { default: fields.discoveryType!.default as DiscoveryOptionSchema['discoveryType']['default'] } };
}

/** "1 to 1,000" */
export const rangeHint = ({ minimum, maximum }: Omit<Bounds, 'default'>) => `${minimum.toLocaleString('en')} to ${maximum.toLocaleString('en')}`;

/** The whole number the text is, within the bounds; else what to enter. */
export function wholeNumber(text: string, range: Omit<Bounds, 'default'>): number | string {
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < range.minimum || value > range.maximum) return `Enter a whole number from ${rangeHint(range)}.`;
  return value;
}
