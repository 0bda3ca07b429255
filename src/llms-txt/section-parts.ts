// The parts of a site's map as sections: a part holding more than 40% of the pages gives its
// largest sub-parts sections of their own, parts of the same name are one section, and more than
// 25 sections end in one "More".
import type { SectionRule } from './rules.ts';
import type { MapNode } from './site-map.ts';
import { normalizeWhitespace, trimEndOf, withoutNumbering } from './text.ts';
import { MAX_SECTIONS, MIN_SECTIONS, SECTION_MAX_SHARE as MAX_SHARE } from './tuning.ts';

export interface MapSection {
  name: string;
  nodes: MapNode[];
  /** The rule that named it, for the pages' trace (see ruleOf). */
  rule: SectionRule;
}

export interface Label {
  id: string;
  name: string;
}

export interface Part {
  id: string;
  name: string;
  depth: number;
  nodes: MapNode[];
  splittable: boolean;
}

export const OVERVIEW = 'Overview';

/** Peels the largest sub-parts off a part holding more than 40% of the pages, until it holds less. */
export function splitLargeParts(parts: Part[], paths: Map<MapNode, Label[]>, total: number) {
  for (;;) {
    const large = parts.filter((part) => part.splittable && part.nodes.length > MAX_SHARE * total).sort((a, b) => b.nodes.length - a.nodes.length)[0];
    if (!large) return;
    large.splittable = false;
    const subParts = new Map<string, Part>();
    for (const node of large.nodes) {
      const label = paths.get(node)![large.depth + 1];
      if (!label) continue;
      const sub = subParts.get(label.id) ?? { id: label.id, name: label.name, depth: large.depth + 1, nodes: [], splittable: true };
      sub.nodes.push(node);
      subParts.set(label.id, sub);
    }
    if (subParts.size < 2) {
      // One sub-part holds everything (a part page whose only entry is a contents page): look one level deeper.
      const only = [...subParts.values()][0];
      if (only && only.nodes.length >= large.nodes.length - 1) {
        large.depth++;
        large.splittable = true;
      }
      continue;
    }
    const peeled: Part[] = [];
    for (const sub of [...subParts.values()].sort((a, b) => b.nodes.length - a.nodes.length)) {
      if (large.nodes.length <= MAX_SHARE * total || sub.nodes.length < 2) break;
      const members = new Set(sub.nodes);
      large.nodes = large.nodes.filter((node) => !members.has(node));
      peeled.push(sub);
    }
    parts.splice(parts.indexOf(large) + 1, 0, ...peeled);
    if (large.nodes.length === 0) parts.splice(parts.indexOf(large), 1);
  }
}

/**
 * A number without a stop before a part's name ("2 Getting Started", "Appendix A Grammar"):
 * Texinfo's numbering, dropped where most parts carry it (a name that opens with a number,
 * "3D Printing", keeps it elsewhere).
 */
const BARE_NUMBERING = /^(?:Appendix [A-Z]|\d+(?:\.\d+)*) +(?=\p{Lu})/u;

/** The parts as sections, those of the same name (after sectionName) as one. */
export function mergeByName(parts: Part[], fromContentsPage: boolean): MapSection[] {
  const sections: MapSection[] = [];
  const numbered = parts.filter((part) => BARE_NUMBERING.test(part.name)).length;
  const unnumbered = (name: string) => (numbered >= MIN_SECTIONS && numbered * 2 >= parts.length ? name.replace(BARE_NUMBERING, '') : name);
  for (const part of parts) {
    const name = sectionName(unnumbered(part.name));
    const same = sections.find((section) => section.name.toLowerCase() === name.toLowerCase());
    if (same) same.nodes.push(...part.nodes);
    else sections.push({ name, nodes: [...part.nodes], rule: ruleOf(part.id, fromContentsPage) });
  }
  return sections;
}

/** What named a part, by its label's kind (see navigationPath, labelPath). */
function ruleOf(id: string, fromContentsPage: boolean): SectionRule {
  if (id === 'overview') return 'section.overview';
  if (id.startsWith('nav:')) return fromContentsPage ? 'section.contents-page-group' : 'section.navigation-group';
  if (id.startsWith('group:')) return 'section.home-group';
  if (id.startsWith('home:')) return 'section.home-entry';
  return 'section.sub-part';
}

/** "II. The SQL Language" → "The SQL Language"; "MAIN PORCELAIN COMMANDS" → "Main porcelain commands"; "{ Licenses }" → "Licenses". */
export function sectionName(raw: string): string {
  let name = trimEndOf(withoutNumbering(withoutEnclosingBrackets(normalizeWhitespace(raw))), ':.;,').trim() || OVERVIEW;
  if (name.length > 3 && name.includes(' ') && name === name.toUpperCase() && /[A-Z]/.test(name)) name = name.charAt(0) + name.slice(1).toLowerCase();
  return name.length > 60 ? name.slice(0, 60).replace(/\s+\S*$/, '') : name;
}

const CLOSING: Readonly<Record<string, string>> = { '{': '}', '[': ']', '(': ')', '<': '>', '«': '»', '‹': '›' };

/** A heading's decoration around all its text ("{ Licenses }", "[ Guides ]") is no part of its name. */
function withoutEnclosingBrackets(name: string): string {
  const closing = CLOSING[name.charAt(0)];
  if (!closing || !name.endsWith(closing)) return name;
  const inner = name.slice(1, -1);
  return inner.includes(name.charAt(0)) || inner.includes(closing) ? name : inner.trim();
}

/**
 * More than 25 sections: the smallest join one "More" section at the end. The first stays (the
 * overview, with the home page): a manual of 45 chapters had listed its home page under "More".
 */
export function capSections(sections: MapSection[]): MapSection[] {
  if (sections.length <= MAX_SECTIONS) return sections;
  const [first, ...rest] = sections;
  const keep = new Set([first, ...rest.sort((a, b) => b.nodes.length - a.nodes.length).slice(0, MAX_SECTIONS - 2)]);
  const kept = sections.filter((section) => keep.has(section));
  const more = sections.filter((section) => !keep.has(section)).flatMap((section) => section.nodes);
  return [...kept, { name: 'More', nodes: more.sort((a, b) => a.order - b.order), rule: 'section.more' }];
}
