// A page's structure in one htmlparser2 pass (no DOM): what the site says about the page (meta
// description, a reference page's purpose line, its first paragraph) and its links, told apart
// by where they sit. Links in navigation and contents blocks (lists, tables of contents,
// sidebars) are the site's own map; links in running text count less; links in page chrome
// (headers, footers, breadcrumbs, "previous/next" bars) count not at all, since they repeat on
// every page. The generator ranks pages and names sections from these outlines.
//
// The parts: the model (page-facts-model.ts), the handler and its state (facts-reader.ts,
// facts-state.ts), what class lists say (class-kinds.ts), collected text and paragraph roles
// (collected-text.ts), pending links (pending-link.ts), head tags (head-tags.ts).
import { Parser, type ParserOptions, type Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import { FactsReader } from './facts-reader.ts';
import type { FactsOptions, PageFacts } from './page-facts-model.ts';
import { TeeTokenizer } from './tee-tokenizer.ts';

export { MAX_HEADING_CHARS } from './facts-reader.ts';
export { isEntry, type FactsOptions, type LinkBlock, type PageFacts, type PageLink } from './page-facts-model.ts';

function parserOptions(alsoTokens: TokenizerCallbacks | undefined): ParserOptions {
  const options: ParserOptions = { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true };
  return alsoTokens ? Object.assign(options, { Tokenizer: TeeTokenizer as typeof Tokenizer, alsoTokens }) : options;
}

export function readPageFacts(html: string, url: string, { alsoTokens, copy = true, content = false }: FactsOptions = {}): PageFacts {
  const reader = new FactsReader(url, content);
  const parser = new Parser(reader, parserOptions(alsoTokens));
  parser.write(html);
  parser.end();
  // htmlparser2 hands out slices of the page, and V8 keeps a whole string alive behind each of its
  // slices: without this copy the outlines of a 1,000-page crawl would hold all 1,000 pages.
  return copy ? structuredClone(reader.outline) : reader.outline;
}
