// The describer used when no model is configured: no network, no model.
import { NO_USAGE, type Describer, type PageDescription } from './describer.ts';
import { keySentences } from './key-sentences.ts';
import { phrasesFor } from './phrases.ts';
import { findHomePage } from './site.ts';

/** The pages' own one-liners, else key sentences of their content; no network, no model. */
export function createExtractiveDescriber(options: { maxDescriptionChars?: number } = {}): Describer {
  const maxChars = options.maxDescriptionChars ?? 200;
  return {
    kind: 'extractive',
    async describe(site, pages, { signal, onProgress } = {}) {
      const described: PageDescription[] = [];
      const phrases = phrasesFor(site.language);
      for (const page of pages) {
        signal?.throwIfAborted();
        // The page's own one-liner (purpose line, meta description, lead paragraph) beats any
        // sentence picked from its body: key sentences only fill in where it has none.
        const sentence = page.description ? '' : keySentences(page.markdown, page.title, phrases, maxChars);
        described.push({
          url: page.url,
          title: page.title,
          description: page.description || sentence,
          source: page.description || sentence ? 'extractive' : 'fallback',
        });
        if (described.length % 50 === 0) onProgress?.(described.length, pages.length);
      }
      onProgress?.(pages.length, pages.length);
      const home = findHomePage(site.url, pages);
      const summary = site.summary || (home ? keySentences(home.markdown, home.title, phrases, 300) : '');
      return {
        site: { name: site.name, summary, source: 'extractive' },
        pages: described,
        usage: { ...NO_USAGE },
        errors: [],
      };
    },
  };
}
