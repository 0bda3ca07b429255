/**
 * A job's result as it crosses back from its generation thread: llms.txt, llms-full.txt and each
 * page's markdown as one UTF-8 buffer that is transferred, not cloned. Only the small rest (titles,
 * descriptions, the site, the stats) is cloned; the event loop decodes each text from the buffer.
 */
import type { GenerationResult } from '../llms-txt/index.ts';

export interface PackedResult {
  /** the result, its texts empty */
  result: GenerationResult;
  /** the texts, one after another */
  bytes: Uint8Array;
  /** where each text ends in `bytes`, or -1 where it is null */
  ends: number[];
}

type Text = string | null;

export function packResult(result: GenerationResult): { packed: PackedResult; transfer: ArrayBuffer[] } {
  const { bytes, ends } = packTexts([result.llmsTxt, result.llmsFullTxt, ...result.pages.map((page) => page.markdown)]);
  const emptied = {
    ...result,
    llmsTxt: '',
    llmsFullTxt: result.llmsFullTxt === null ? null : '',
    pages: result.pages.map((page) => ({ ...page, markdown: page.markdown === null ? null : '' })),
  };
  return { packed: { result: emptied, bytes, ends }, transfer: [bytes.buffer as ArrayBuffer] };
}

export function unpackResult({ result, bytes, ends }: PackedResult): GenerationResult {
  const [llmsTxt, llmsFullTxt, ...markdown] = unpackTexts(bytes, ends);
  result.llmsTxt = llmsTxt!;
  result.llmsFullTxt = llmsFullTxt;
  result.pages.forEach((page, index) => (page.markdown = markdown[index]));
  return result;
}

function packTexts(texts: Text[]): { bytes: Uint8Array; ends: number[] } {
  const total = texts.reduce((sum, text) => sum + (text === null ? 0 : Buffer.byteLength(text)), 0);
  // Not from Buffer's shared pool: the buffer is transferred, so it must be its own.
  const bytes = Buffer.allocUnsafeSlow(total);
  let end = 0;
  const ends = texts.map((text) => (text === null ? -1 : (end += bytes.write(text, end))));
  return { bytes, ends };
}

function unpackTexts(bytes: Uint8Array, ends: number[]): Text[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let start = 0;
  return ends.map((end) => {
    if (end < 0) return null;
    const text = buffer.toString('utf8', start, end);
    start = end;
    return text;
  });
}
