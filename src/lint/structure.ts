/**
 * An llms.txt read against llmstxt.org, line by line in one pass (a hostile file of 100,000 lines
 * costs one pass): an H1 first, a blockquote summary, details without headings, then H2 sections
 * of `- [name](url): notes` lines, `Optional` last. What it finds is a list of findings; what it
 * reads is the links, for the checks that need the network.
 */
import { normalizeUrl } from '../crawl/index.ts';
import type { Finding } from './findings.ts';

export interface ListedLink {
  url: string;
  line: number;
  section: string;
}

export interface FileStructure {
  title: string | null;
  links: ListedLink[];
  findings: Finding[];
}

const H1 = /^# +(\S.*)$/;
const HEADING = /^(#{1,6})(?: +(.*))?$/;
const LIST_ITEM = /^\s*[-*+] /;
// `- [name](url)` with optional `: notes`; a name may hold escaped brackets.
const LINK_LINE = /^\s*[-*+] \[((?:\\.|[^\\\]])+)\]\(\s*([^()\s]+)\s*\)(?::\s*(.*))?$/;

export function readStructure(text: string, fileUrl: string | undefined): FileStructure {
  const lines = text.replace(/^\ufeff/, '').split(/\r?\n/);
  const findings: Finding[] = [];
  const links: ListedLink[] = [];
  const firstLine = lines.findIndex((line) => line.trim() !== '');
  const h1 = firstLine >= 0 ? H1.exec(lines[firstLine]) : null;
  if (!h1) findings.push({ code: 'missing-h1', line: firstLine >= 0 ? firstLine + 1 : 1, message: 'The file must begin with an H1 naming the project or site ("# Name")' });

  let index = h1 ? firstLine + 1 : 0;
  while (index < lines.length && lines[index].trim() === '') index++;
  if (h1 && !lines[index]?.startsWith('>')) {
    findings.push({ code: 'missing-summary', line: index + 1, message: 'The H1 should be followed by a blockquote ("> …") summing up the site in a sentence or two' });
  }

  let section: { name: string; line: number; links: number } | null = null;
  const sections: Array<{ name: string; line: number; links: number }> = [];
  for (; index < lines.length; index++) {
    const line = lines[index];
    const number = index + 1;
    const heading = HEADING.exec(line);
    if (heading) {
      const level = heading[1].length;
      if (level === 2 && heading[2]?.trim()) {
        section = { name: heading[2].trim(), line: number, links: 0 };
        sections.push(section);
      } else if (level === 1) {
        findings.push({ code: 'multiple-h1', line: number, message: 'Only one H1 is allowed, on the first line' });
      } else {
        findings.push({ code: 'misplaced-heading', line: number, message: `Only H2 headings ("## Section") may divide the file; found ${'#'.repeat(level)}` });
      }
      continue;
    }
    if (!section || !LIST_ITEM.test(line)) continue;
    const link = LINK_LINE.exec(line);
    const url = link ? normalizeUrl(link[2], fileUrl) : null;
    if (!link || !url) {
      findings.push({ code: 'bad-link-line', line: number, message: `A section's list items must read "- [name](url): notes"; got ${JSON.stringify(line.trim().slice(0, 80))}` });
      continue;
    }
    section.links++;
    links.push({ url, line: number, section: section.name });
  }

  if (sections.length === 0) findings.push({ code: 'no-sections', line: null, message: 'The file has no H2 section listing links ("## Docs" then "- [name](url): notes")' });
  for (const each of sections) {
    if (each.links === 0) findings.push({ code: 'empty-section', line: each.line, message: `Section "${each.name}" lists no links` });
  }
  const optional = sections.findIndex((each) => each.name.toLowerCase() === 'optional');
  if (optional >= 0 && optional !== sections.length - 1) {
    findings.push({ code: 'optional-not-last', line: sections[optional].line, message: 'The Optional section should be the last one: readers with little room skip what follows it' });
  }
  findings.push(...duplicates(links));
  return { title: h1 ? h1[1].trim() : null, links, findings };
}

function duplicates(links: ListedLink[]): Finding[] {
  const first = new Map<string, number>();
  const found: Finding[] = [];
  for (const link of links) {
    const key = sameUrlKey(link.url);
    const seen = first.get(key);
    if (seen === undefined) first.set(key, link.line);
    else found.push({ code: 'duplicate-link', line: link.line, message: `${link.url} is already listed on line ${seen}` });
  }
  return found;
}

/** One spelling per page: `/docs` and `/docs/` are one page to a reader. */
export const sameUrlKey = (url: string) => url.replace(/\/(?=$|\?)/, '');
