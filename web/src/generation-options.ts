/**
 * The options of POST /generate as the service declares them: their defaults and limits, read
 * from its OpenAPI document. The one place the dashboard learns them, so no form restates a
 * server default by hand (when the service changes one, the form follows).
 */
import { OPENAPI_PATH } from '../../src/http/paths.ts';

interface NumberSchema {
  default?: unknown;
  minimum?: number;
  maximum?: number;
  description?: string;
  anyOf?: NumberSchema[];
}

export interface GenerationOptionSchema {
  maxUrls: { default: number; minimum: number; maximum: number };
  generationMethod: { default: 'simple' | 'enhanced' };
  showFullText: { default: boolean };
  /** llms-full.txt's token budget: no default (null), the smallest and largest budget */
  maxTokens: { minimum: number; maximum: number; description: string };
  includePaths: { description: string };
}

/** The schema's own numbers, or those of its first alternative that has some (`integer | null`). */
function numeric(schema: NumberSchema): NumberSchema {
  return schema.anyOf?.find((s) => s.minimum !== undefined) ?? schema;
}

function read(options: Record<string, NumberSchema>): GenerationOptionSchema {
  const maxUrls = numeric(options.maxUrls!);
  const maxTokens = numeric(options.maxTokens!);
  return {
    maxUrls: { default: Number(options.maxUrls!.default), minimum: maxUrls.minimum!, maximum: maxUrls.maximum! },
    generationMethod: { default: options.generationMethod!.default as 'simple' | 'enhanced' },
    showFullText: { default: options.showFullText!.default === true },
    maxTokens: { minimum: maxTokens.minimum!, maximum: maxTokens.maximum!, description: maxTokens.description ?? '' },
    includePaths: { description: options.includePaths!.description ?? '' },
  };
}

let loading: Promise<GenerationOptionSchema> | null = null;

/** Fetched once per page load; a failed fetch is tried again by the next caller. */
export function generationOptionSchema(): Promise<GenerationOptionSchema> {
  loading ??= (async () => {
    const response = await fetch(OPENAPI_PATH);
    if (!response.ok) throw new Error(`The form's settings could not be loaded (${response.status}). Please reload the page.`);
    const doc = await response.json();
    const body = doc.paths['/api/v1/generate'].post.requestBody.content['application/json'].schema;
    return read(body.properties.options.properties);
  })().catch((err) => {
    loading = null;
    throw err;
  });
  return loading;
}
