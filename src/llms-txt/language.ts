// A site published in several languages is listed in one: the start page's. A page's language
// comes from its URL when the site puts it there (`/de/…`, Apache's `page.html.de`), else from
// its `<html lang>`.
import type { PageFacts } from './page-facts.ts';

// ISO 639-1 codes of languages sites commonly publish in; a two-letter folder outside this list
// (`/js/`, `/go/`) is not read as a language.
const LANGUAGES = new Set(
  'ar bg bn ca cs da de el en es et fa fi fr ga he hi hr hu id it ja ko lt lv ms nb nl nn no pl pt ro ru sk sl sr sv th tr uk ur vi zh'.split(' '),
);

export function languageOf(outline: PageFacts): string | null {
  let path = '';
  try {
    path = new URL(outline.url).pathname;
  } catch {
    return null;
  }
  const suffix = /\.html?\.([a-z]{2})(?:\.[\w-]+)?$/i.exec(path)?.[1]?.toLowerCase();
  if (suffix && LANGUAGES.has(suffix)) return suffix;
  const folder = /^\/([a-z]{2})(?:[-_][a-z]{2,4})?\//i.exec(path)?.[1]?.toLowerCase();
  if (folder && LANGUAGES.has(folder)) return folder;
  const lang = outline.lang?.split(/[-_]/)[0]?.toLowerCase();
  return lang && /^[a-z]{2,3}$/.test(lang) ? lang : null;
}

/** Whether a site in this language is written to in English: an unknown language is taken as English. */
export function isEnglish(language: string | null | undefined): boolean {
  return !language || language.toLowerCase().startsWith('en');
}

/** The pages in the home page's language (all of them when it has none). */
export function inLanguageOf<T extends { outline: PageFacts }>(home: T | undefined, pages: readonly T[]): T[] {
  const language = home ? languageOf(home.outline) : null;
  if (!language) return [...pages];
  return pages.filter((page) => {
    const own = languageOf(page.outline);
    return own === null || own === language;
  });
}
