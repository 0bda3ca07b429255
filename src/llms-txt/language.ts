// A site published in several languages is listed in one: the start page's. A page's language
// comes from its URL when the site puts it there (`/de/…`, `/handbook/de-DE/…`, Apache's `page.html.de`), else from
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
  // Deeper in the path, a folder names a language with its region only (`/handbook/fr-FR/`): a
  // bare two letters there is as often a name (`/api/go/`).
  const regional = /\/([a-z]{2})[-_][A-Z]{2}\//.exec(path)?.[1];
  if (regional && LANGUAGES.has(regional)) return regional;
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

/** Words English prose cannot go long without. */
const ENGLISH_FUNCTION_WORDS = new Set(
  'the a an of to in is are was be and or for with on by as at from that this it its can you your we not which will has have how what when'.split(' '),
);
/** The like of Latin (a theme's filler text), French, Spanish, Italian and German: none of them an English word. */
const OTHER_FUNCTION_WORDS = new Set('et est ut sed quod cum nec atque qui quae sunt esse enim und der das ist nicht mit les des une que los las una che'.split(' '));
/** A text names at least this many of the other languages' words before it is read as theirs… */
const MIN_OTHER_WORDS = 2;
/** …and one this long without a single English function word is not English either. */
const MIN_WORDS_WITHOUT_ENGLISH = 12;

/**
 * Whether a text reads as English: on a page declared English, a paragraph with more of another
 * language's function words than of English's is in that language, most often a theme's filler
 * ("Est in vagis et Pittheus tu arge…"), and so is a long one without any English function word
 * ("Ea furtique risere fratres edidit terrae magis…"). A short list of names is not judged.
 */
export function readsAsEnglish(text: string): boolean {
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  const english = words.filter((word) => ENGLISH_FUNCTION_WORDS.has(word)).length;
  const other = words.filter((word) => OTHER_FUNCTION_WORDS.has(word)).length;
  if (english === 0 && words.length >= MIN_WORDS_WITHOUT_ENGLISH) return false;
  return other < MIN_OTHER_WORDS || other <= english;
}
