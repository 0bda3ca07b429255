// Stage 5, choose: the maxPages listed, by the site's map; then the DOM pass over them (their
// markdown when it is wanted, their main content where their facts say nothing) and what each
// says of itself.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Candidate } from '../arrival.ts';
import type { DomPass } from '../dom-pass.ts';
import { pageText, type PageText } from '../page-text.ts';
import { choosePages, type MapNode, type SiteMap } from '../site-map.ts';

export interface ChooseInput {
  map: SiteMap;
  candidates: readonly Candidate[];
  maxPages: number;
  domPass: DomPass;
}

/** A listed page: its place in the site's map (its facts at `node.outline`), its page as it arrived, what it says of itself. */
export interface ChosenPage {
  node: MapNode;
  candidate: Candidate;
  text: PageText;
  /** From the DOM pass; null when no markdown is wanted. */
  markdown: string | null;
}

/** The pages to list, most important first, once each is read. */
export async function chooseAndRead({ map, candidates, maxPages, domPass }: ChooseInput): Promise<ChosenPage[]> {
  const chosen = choosePages(map, maxPages);
  // Ranking, describing and rendering 1,000 pages is a quarter of a second of work on the
  // event loop: it lets the API's requests through between the steps.
  await yieldToEventLoop();
  const byUrl = new Map(candidates.map((candidate) => [candidate.outline.url, candidate]));
  const chosenCandidates = chosen.map((node) => byUrl.get(node.url)!);
  chosenCandidates.forEach((candidate) => domPass.start(candidate));
  const read = await Promise.all(chosenCandidates.map((candidate) => candidate.read!));
  return chosen.map((node, index) => ({
    node,
    candidate: chosenCandidates[index],
    text: pageText(node.outline, read[index].content),
    markdown: read[index].markdown,
  }));
}
