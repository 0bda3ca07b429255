// llms.txt and llms-full.txt, following llmstxt.org: `# Name`, `> summary`, optional details,
// then `## Section` lists of `- [title](url): notes`, with `## Optional` last.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { phrasesFor, type Phrases } from './phrases.ts';
import { findRepeatedLines, type MarkdownLines } from './repeated-lines.ts';
import { OPTIONAL_SECTION, planSections, type Section } from './sections.ts';
import { normalizeWhitespace, replaceMarkdownLinks } from './text.ts';
import type { TokenCounter } from './tokens.ts';
import type { DescribedPage, SiteSummary } from './types.ts';

export interface RenderOptions {
  /** Append each page's sitemap lastmod (YYYY-MM-DD) to its notes. */
  includeModificationDate?: boolean;
}

export function renderLlmsTxt(site: SiteSummary, pages: readonly DescribedPage[], options: RenderOptions = {}): string {
  const blocks = header(site);
  const details = detailsText(site.details);
  if (details) blocks.push(details);
  for (const section of groupIntoSections(pages)) {
    const links = section.pages.map((page) => linkLine(page, options));
    blocks.push(`## ${oneLine(section.name)}\n\n${links.join('\n')}`);
  }
  return `${blocks.join('\n\n')}\n`;
}

export interface FullTextOptions {
  /** Keep llms-full.txt within this many tokens: whole pages, most important first (`rank`), the others left out. */
  maxTokens?: number | null;
  countTokens?: TokenCounter;
  /** Told how many pages the budget left out (0 when all fit). */
  onLeftOut?: (pages: number) => void;
  /** The site's language ("de"; a site that does not say is read as English): the words of its back-to-top links. */
  language?: string | null;
  /** The pages' markdown lines, keyed ahead (see MarkdownLines); keyed here when absent. */
  markdownLines?: MarkdownLines;
}

const PAGE_SEPARATOR = '\n\n---\n\n';

/**
 * The site header, then every page's main content under `## title` with its source URL. A page at
 * a time, with a turn of the event loop between pages: a 1,000-page site's text takes most of a
 * second to render, and API requests would wait.
 */
export async function renderLlmsFullTxt(site: SiteSummary, pages: readonly DescribedPage[], options: FullTextOptions = {}): Promise<string> {
  const head = header(site).join('\n\n');
  const phrases = phrasesFor(options.language);
  const repeatedLinesOf = findRepeatedLines(pages.map((page) => page.markdown ?? ''), options.markdownLines);
  const blocks = new Map<DescribedPage, string>();
  for (const section of groupIntoSections(pages)) {
    for (const page of section.pages) {
      const title = oneLine(page.title) || page.url;
      const markdown = withoutNavigation(page.markdown ?? '', repeatedLinesOf(page.markdown ?? ''), phrases);
      const body = withoutEdgeRules(demoteHeadings(withoutLeadingTitle(markdown, title), 2)) || oneLine(page.description);
      blocks.set(page, [`## ${title}`, `Source: ${page.url}`, body].filter(Boolean).join('\n\n'));
      await yieldToEventLoop();
    }
  }
  // A reader of a file the budget cut is told so, below the header.
  const headOf = (leftOut: number) => (leftOut > 0 ? `${head}\n\n${leftOutNote(leftOut, blocks.size)}` : head);
  const render = (kept: ReadonlySet<DescribedPage>) =>
    `${[headOf(blocks.size - kept.size), ...[...blocks].filter(([page]) => kept.has(page)).map(([, block]) => block)].join(PAGE_SEPARATOR)}\n`;
  const { maxTokens, countTokens } = options;
  if (!maxTokens || !countTokens) return render(new Set(blocks.keys()));
  try {
    const kept = pagesWithinBudget(headOf(blocks.size), blocks, maxTokens, countTokens, render);
    options.onLeftOut?.(blocks.size - kept.size);
    return render(kept);
  } finally {
    countTokens.forget?.();
  }
}

const leftOutNote = (leftOut: number, pages: number) =>
  `${leftOut} of the ${pages} pages listed in llms.txt ${leftOut === 1 ? 'is' : 'are'} left out of this file to keep it within its token budget.`;

/**
 * The most important pages whose whole text fits the budget: by rank, each page that still fits
 * is kept, one that does not is left out (a later, shorter one may fit). `head` is the longest
 * header (its note counting every page out). Tokens may merge across the joins, so the least
 * important kept pages go until the whole file fits.
 */
function pagesWithinBudget(
  head: string,
  blocks: ReadonlyMap<DescribedPage, string>,
  maxTokens: number,
  countTokens: TokenCounter,
  render: (kept: ReadonlySet<DescribedPage>) => string,
): Set<DescribedPage> {
  const byRank = [...blocks.keys()].sort((a, b) => (a.rank ?? Infinity) - (b.rank ?? Infinity));
  let left = maxTokens - countTokens(`${head}\n`);
  const kept = new Set<DescribedPage>();
  for (const page of byRank) {
    const cost = countTokens(PAGE_SEPARATOR + blocks.get(page)!);
    if (cost > left) continue;
    kept.add(page);
    left -= cost;
  }
  const leastImportantFirst = byRank.filter((page) => kept.has(page)).reverse();
  while (kept.size > 0 && countTokens(render(kept)) > maxTokens) kept.delete(leastImportantFirst.shift()!);
  return kept;
}

/**
 * Pages that all carry a section (the site's own parts, or the model's) are listed in the order
 * given, one block per section in order of first appearance, `Optional` last; otherwise the
 * sections come from URL folders.
 */
export function groupIntoSections(pages: readonly DescribedPage[]): Section<DescribedPage>[] {
  const regular = pages.filter((page) => !page.optional && page.section !== OPTIONAL_SECTION);
  if (regular.length === 0 || regular.some((page) => !page.section)) return planSections(pages);
  const sections = new Map<string, Section<DescribedPage>>();
  for (const page of regular) {
    const key = page.section!.toLowerCase();
    if (!sections.has(key)) sections.set(key, { name: page.section!, pages: [] });
    sections.get(key)!.pages.push(page);
  }
  const optional = pages.filter((page) => !regular.includes(page));
  return [...sections.values(), ...(optional.length > 0 ? [{ name: OPTIONAL_SECTION, pages: optional }] : [])];
}

function header(site: SiteSummary): string[] {
  const blocks = [`# ${oneLine(site.name) || 'Website'}`];
  const summary = oneLine(site.summary);
  if (summary) blocks.push(`> ${summary}`);
  return blocks;
}

/** Details become plain paragraphs: no headings, which llms.txt reserves for its own structure. */
function detailsText(details: string | null | undefined): string {
  if (!details) return '';
  return details
    .split(/\n\s*\n/)
    .map((paragraph) => oneLine(paragraph.replace(/^\s*#+\s*/gm, '')))
    .filter(Boolean)
    .join('\n\n');
}

function linkLine(page: DescribedPage, options: RenderOptions): string {
  const title = escapeLinkText(oneLine(page.title) || page.url);
  const notes = [oneLine(page.description)];
  const date = options.includeModificationDate ? formatDate(page.lastModified) : null;
  if (date) notes.push(notes[0] ? `(last modified ${date})` : `Last modified ${date}`);
  const text = notes.filter(Boolean).join(' ');
  return `- [${title}](${linkTarget(page.linkUrl ?? page.url)})${text ? `: ${text}` : ''}`;
}

function oneLine(text: string | null | undefined): string {
  return normalizeWhitespace(text);
}

/** Brackets would end the link text early; backslashes would escape what follows them. */
export function escapeLinkText(text: string): string {
  return text.replace(/([\\[\]])/g, '\\$1');
}

/** Spaces and parentheses would end a markdown link target. */
function linkTarget(url: string): string {
  return url.replace(/\s/g, '%20').replace(/\(/g, '%28').replace(/\)/g, '%29');
}

/** A sitemap lastmod (W3C datetime or anything Date parses) as YYYY-MM-DD; null when unusable. */
export function formatDate(value: string | null | undefined): string | null {
  if (!value) return null;
  const iso = /^(\d{4}-\d{2}-\d{2})/.exec(value.trim());
  if (iso) return iso[1];
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString().slice(0, 10);
}

// A line of links to the same page in other languages ("English | Deutsch | Español"), or one
// that only takes the reader back to the top of the page.
const LANGUAGE_NAMES =
  /^(?:english|deutsch|español|espanol|français|francais|italiano|português|portugues|nederlands|dansk|svenska|norsk|suomi|polski|русский|日本語|中文|简体中文|繁體中文|한국어|türkçe|čeština|magyar|română|ελληνικά|العربية|[a-z]{2}(?:-[a-z]{2,4})?)$/i;
// A link alone on its line, its text an arrow in any language or the words of the site's (Phrases.backToTop).
const LONE_LINK = /^\s*(?:[-*]\s*)?\[([^\]]*)\]\([^)]*\)\s*$/;
const UP_ARROW = /^(?:\^|↑|⬆)$/;

/** Drops language switchers, back-to-top links and lines (navigation, footers) that many pages repeat (`isRepeatedLine`, by line index). */
function withoutNavigation(markdown: string, isRepeatedLine: (lineIndex: number) => boolean, phrases: Phrases): string {
  let fence = false;
  return markdown
    .split('\n')
    .filter((line, i) => {
      if (/^\s{0,3}(?:`{3,}|~{3,})/.test(line)) fence = !fence;
      if (fence || !line.trim()) return true;
      return !isBackToTop(line, phrases) && !isLanguageSwitcher(line) && !isRepeatedLine(i);
    })
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}

function isBackToTop(line: string, phrases: Phrases): boolean {
  const text = LONE_LINK.exec(line)?.[1];
  return text !== undefined && (UP_ARROW.test(text) || phrases.backToTop.test(text));
}

function isLanguageSwitcher(line: string): boolean {
  if (!line.includes('](')) return false;
  const links: string[] = [];
  const withoutLinks = replaceMarkdownLinks(line, (text) => (links.push(text.trim()), ''), { nonEmpty: true });
  if (links.length < 3) return false;
  const rest = withoutLinks.replace(/available languages:?|languages?:?|[\s|,/·•-]+/gi, '');
  return rest === '' && links.filter((text) => LANGUAGE_NAMES.test(text)).length >= links.length * 0.8;
}

/** Drops a first heading that only repeats the page title. */
/** A page's own rules at its start or end (`<hr>` before a footer) would double the separator between pages. */
function withoutEdgeRules(markdown: string): string {
  const lines = markdown.trim().split('\n');
  const isRule = (line: string | undefined) => line !== undefined && /^ {0,3}([-*_])(?: *\1){2,} *$/.test(line);
  while (isRule(lines[0])) lines.shift();
  while (isRule(lines[lines.length - 1])) lines.pop();
  return lines.join('\n').trim();
}

function withoutLeadingTitle(markdown: string, title: string): string {
  const match = /^#{1,6}\s+(.+)\n*/.exec(markdown);
  if (match && normalizeWhitespace(match[1]).toLowerCase() === title.toLowerCase()) return markdown.slice(match[0].length);
  return markdown;
}

/**
 * Moves every heading `levels` deeper (at most `######`) so a page's own headings nest under its
 * `## title`. Lines inside fenced code blocks are left alone.
 */
export function demoteHeadings(markdown: string, levels: number): string {
  let fence: string | null = null;
  return markdown
    .split('\n')
    .map((line) => {
      const fenceMatch = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
      if (fenceMatch) {
        const marker = fenceMatch[1];
        if (fence === null) fence = marker;
        else if (marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
        return line;
      }
      if (fence !== null) return line;
      const heading = /^(#{1,6})(?=\s|$)/.exec(line);
      return heading ? '#'.repeat(Math.min(6, heading[1].length + levels)) + line.slice(heading[1].length) : line;
    })
    .join('\n');
}
