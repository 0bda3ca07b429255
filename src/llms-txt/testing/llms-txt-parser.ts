// A strict parser of the llms.txt format (llmstxt.org), for tests: an H1 on the first line; an
// optional blockquote; details without headings; then H2 sections that each hold only a
// markdown list of `[title](url)` links with optional `: notes`.

export interface LlmsTxtLink {
  title: string;
  url: string;
  notes: string | null;
}

export interface LlmsTxtSection {
  name: string;
  links: LlmsTxtLink[];
}

export interface LlmsTxtDocument {
  title: string;
  summary: string | null;
  details: string;
  sections: LlmsTxtSection[];
}

export class LlmsTxtParseError extends Error {
  readonly line: number;
  constructor(line: number, reason: string) {
    super(`line ${line}: ${reason}`);
    this.line = line;
    this.name = 'LlmsTxtParseError';
  }
}

// [title](url) with optional ": notes"; the title may hold escaped characters (\[ \] \\).
const LINK_ITEM = /^- \[((?:\\.|[^\\\]\[])+)\]\(([^()\s]+)\)(?:: (\S.*))?$/;
const HEADING = /^(#{1,6})(?:\s+(.*))?$/;

export function parseLlmsTxt(text: string): LlmsTxtDocument {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const fail = (index: number, reason: string): never => {
    throw new LlmsTxtParseError(index + 1, reason);
  };

  const h1 = /^# (\S.*)$/.exec(lines[0] ?? '');
  if (!h1) fail(0, 'the first line must be an H1 ("# Name")');
  const document: LlmsTxtDocument = { title: h1![1].trim(), summary: null, details: '', sections: [] };

  let index = 1;
  const skipBlank = () => {
    while (index < lines.length && lines[index].trim() === '') index++;
  };

  skipBlank();
  const quote: string[] = [];
  while (index < lines.length && lines[index].startsWith('>')) quote.push(lines[index++].replace(/^>\s?/, ''));
  if (quote.length > 0) document.summary = quote.join(' ').trim();

  const details: string[] = [];
  while (index < lines.length && !lines[index].startsWith('## ')) {
    const line = lines[index];
    if (HEADING.test(line)) fail(index, 'details may not contain headings');
    if (line.startsWith('>')) fail(index, 'the blockquote must directly follow the H1');
    details.push(line);
    index++;
  }
  document.details = details.join('\n').trim();

  let section: LlmsTxtSection | null = null;
  for (; index < lines.length; index++) {
    const line = lines[index];
    if (line.trim() === '') continue;
    if (line.startsWith('## ')) {
      if (section && section.links.length === 0) fail(index, `section "${section.name}" is empty`);
      const name = line.slice(3).trim();
      if (!name) fail(index, 'a section needs a name');
      section = { name, links: [] };
      document.sections.push(section);
      continue;
    }
    if (HEADING.test(line)) fail(index, 'only H2 headings may follow the details');
    const link = LINK_ITEM.exec(line);
    if (!link) fail(index, `expected "- [title](url): notes", got ${JSON.stringify(line.slice(0, 80))}`);
    const [, rawTitle, url, notes] = link!;
    if (!isAbsoluteHttpUrl(url)) fail(index, `not an absolute http(s) URL: ${url}`);
    section!.links.push({ title: rawTitle.replace(/\\(.)/g, '$1'), url, notes: notes?.trim() ?? null });
  }
  if (section && section.links.length === 0) fail(lines.length - 1, `section "${section.name}" is empty`);
  return document;
}

function isAbsoluteHttpUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:';
  } catch {
    return false;
  }
}
