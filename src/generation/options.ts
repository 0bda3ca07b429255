/** A generation's options and its files' sizes as jobs and sites keep them, and as the API shows them. */
import { Type } from 'typebox';
import { RENDER_MODES, type PathFilters, type RenderMode } from '../crawl/index.ts';
import { TOKEN_ENCODING, type FileSize, type GenerationMethod } from '../llms-txt/index.ts';

export interface GenerationOptions extends PathFilters {
  maxUrls: number;
  showFullText: boolean;
  includeModificationDate: boolean;
  generationMethod: GenerationMethod;
  /** llms-full.txt's budget in tokens (the most important pages, whole); null for none. */
  maxTokens: number | null;
  /** whether pages are rendered in a browser first (docs/decisions/rendering.md) */
  render: RenderMode;
  /** llms.txt links each page to its markdown copy: the site's own, else the hosted one */
  linkMarkdown: boolean;
}

export const GenerationOptionsView = Type.Object({
  maxUrls: Type.Integer(),
  showFullText: Type.Boolean(),
  includeModificationDate: Type.Boolean(),
  generationMethod: Type.String(),
  includePaths: Type.Array(Type.String()),
  excludePaths: Type.Array(Type.String()),
  maxTokens: Type.Union([Type.Integer(), Type.Null()]),
  render: Type.String({ description: RENDER_MODES.join(' | ') }),
  linkMarkdown: Type.Boolean(),
});

/** Options read back from a job or a site: those stored before a field existed lack it, and get its default. */
export function readGenerationOptions(stored: unknown): GenerationOptions {
  const options = stored as Omit<GenerationOptions, 'includePaths' | 'excludePaths' | 'maxTokens' | 'render' | 'linkMarkdown'> & Partial<GenerationOptions>;
  return {
    ...options,
    includePaths: options.includePaths ?? [],
    excludePaths: options.excludePaths ?? [],
    maxTokens: options.maxTokens ?? null,
    render: options.render ?? 'never',
    linkMarkdown: options.linkMarkdown ?? false,
  };
}

const samePatterns = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((pattern, i) => pattern === b[i]);

/** The same options, whatever order or defaults they were written with. */
export function sameOptions(a: GenerationOptions, b: GenerationOptions): boolean {
  return (
    a.maxUrls === b.maxUrls &&
    a.showFullText === b.showFullText &&
    a.includeModificationDate === b.includeModificationDate &&
    a.generationMethod === b.generationMethod &&
    a.maxTokens === b.maxTokens &&
    a.render === b.render &&
    a.linkMarkdown === b.linkMarkdown &&
    samePatterns(a.includePaths, b.includePaths) &&
    samePatterns(a.excludePaths, b.excludePaths)
  );
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
