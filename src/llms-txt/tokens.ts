/**
 * Sizes of the generated files in bytes and in tokens, counted with the o200k_base encoding
 * (OpenAI's GPT-4o, GPT-4.1 and o-series models; other models' tokenizers land within about 10%
 * on English text) by gpt-tokenizer. Its tables (about 60 MB in memory) load on the first count.
 */
export const TOKEN_ENCODING = 'o200k_base';

/** Below this, llms-full.txt could not hold its header and one page. */
export const MIN_FULL_TEXT_TOKENS = 100;

export type TokenCounter = (text: string) => number;

export interface FileSize {
  bytes: number;
  tokens: number;
}

/**
 * A file is text to the model that reads it: a special token's spelling in a page (`<|endoftext|>`
 * in a page about tokenizers) is counted as the ordinary text it is, where the tokenizer's
 * default refuses it with an error.
 */
export async function loadTokenCounter(): Promise<TokenCounter> {
  const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
  const asText = { disallowedSpecial: new Set<string>() };
  return (text) => countTokens(text, asText);
}

export function fileSize(content: string, countTokens: TokenCounter): FileSize {
  return { bytes: Buffer.byteLength(content, 'utf8'), tokens: countTokens(content) };
}
