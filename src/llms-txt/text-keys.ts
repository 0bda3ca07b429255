// Keys the stages read from a job's texts (a paragraph's skeleton, its frame, its opening), each
// made once per text. They are made as each page arrives (see readArrivals), while the
// generation waits on the crawl, and are found made when the site's map and its repetition are
// read after it, when the job waits on them.
import type { PageFacts } from './page-facts.ts';
import { openingOf } from './secondary.ts';
import { frameOf, skeletonOf } from './templates.ts';

export class TextKeys {
  private readonly skeletons = new Map<string, string>();
  private readonly frames = new Map<string, string>();
  private readonly openings = new Map<string, string | null>();

  /** See skeletonOf. */
  skeleton = (text: string): string => made(this.skeletons, text, skeletonOf);
  /** See frameOf. */
  frame = (text: string): string => made(this.frames, text, frameOf);
  /** See openingOf. */
  opening = (text: string | null | undefined): string | null => made(this.openings, text ?? '', openingOf);

  /** Makes the keys the site's map will ask of a page (see findExcerptListings, buildSiteMap). */
  prime(outline: PageFacts): void {
    this.frame(outline.firstParagraph);
    for (const text of [outline.firstParagraph, outline.metaDescription, ...outline.paragraphs]) this.opening(text);
  }
}

function made<T>(keys: Map<string, T>, text: string, make: (text: string) => T): T {
  let key = keys.get(text);
  if (key === undefined) keys.set(text, (key = make(text)));
  return key;
}
