// Stage 8, section: the pages in the order they are listed, each with its section: the site's own
// parts when its navigation yields them, else sections from URL folders (render decides),
// Optional last.
import { sectionsFromMap } from '../map-sections.ts';
import { isOptional, type MapNode, type SiteMap } from '../site-map.ts';
import type { DescribedPage } from '../types.ts';

export interface SectionInput {
  map: SiteMap;
  /** The listed pages' nodes, in the order chosen. */
  chosen: readonly MapNode[];
  /** Their pages, described, in the same order. */
  pages: DescribedPage[];
}

export function placeInSections({ map, chosen, pages }: SectionInput): DescribedPage[] {
  const pageOf = new Map(chosen.map((node, index) => [node, pages[index]]));
  const placed = sectionsFromMap(map, chosen.filter((node) => !isOptional(node)), (node) => pageOf.get(node)?.title);
  for (const node of placed?.overflow ?? []) pageOf.get(node)!.optional = true;
  for (const page of pages) page.trace!.section = page.optional ? 'section.optional' : 'section.url-folder';
  // Without the site's own parts, sections come from URL folders (render), each in reading order.
  if (!placed) return [...chosen].sort((a, b) => a.order - b.order).map((node) => pageOf.get(node)!);
  const ordered: DescribedPage[] = [];
  for (const section of placed.sections) {
    for (const node of section.nodes) {
      const page = pageOf.get(node)!;
      page.section = section.name;
      page.trace!.section = section.rule;
      ordered.push(page);
    }
  }
  return [...ordered, ...pages.filter((page) => page.optional)];
}
