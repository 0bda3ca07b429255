// llms.txt and llms-full.txt, following llmstxt.org: `# Name`, `> summary`, optional details,
// then `## Section` lists of `- [title](url): notes`, with `## Optional` last.
import { planSections } from './sections.ts';
import { normalizeWhitespace } from './text.ts';
import type { DescribedPage, SiteSummary } from './types.ts';

export interface RenderOptions {
  /** Append each page's sitemap lastmod (YYYY-MM-DD) to its notes. */
  includeModificationDate?: boolean;
}

export function renderLlmsTxt(site: SiteSummary, pages: readonly DescribedPage[], options: RenderOptions = {}): string {
  const blocks = header(site);
  const details = detailsText(site.details);
  if (details) blocks.push(details);
  for (const section of planSections(pages)) {
    const links = section.pages.map((page) => linkLine(page, options));
    blocks.push(`## ${oneLine(section.name)}\n\n${links.join('\n')}`);
  }
  return `${blocks.join('\n\n')}\n`;
}

/** The site header, then every page's main content under `## title` with its source URL. */
export function renderLlmsFullTxt(site: SiteSummary, pages: readonly DescribedPage[]): string {
  const parts = [header(site).join('\n\n')];
  for (const section of planSections(pages)) {
    for (const page of section.pages) {
      const title = oneLine(page.title) || page.url;
      const body = demoteHeadings(withoutLeadingTitle(page.markdown, title), 2).trim() || oneLine(page.description);
      parts.push([`## ${title}`, `Source: ${page.url}`, body].filter(Boolean).join('\n\n'));
    }
  }
  return `${parts.join('\n\n---\n\n')}\n`;
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
  return `- [${title}](${linkTarget(page.url)})${text ? `: ${text}` : ''}`;
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

/** Drops a first heading that only repeats the page title. */
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
