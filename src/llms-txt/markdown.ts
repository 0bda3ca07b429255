// HTML → markdown with turndown: atx headings, fenced code blocks with their language, GFM
// tables, and links and images made absolute against the page's URL.
import TurndownService from 'turndown';
import { strikethrough, taskListItems } from 'turndown-plugin-gfm';

/** Markdown beyond this is cut at a paragraph boundary (a page's main content rarely comes close). */
export const MAX_MARKDOWN_CHARS = 100_000;

type Element = HTMLElement;

const REMOVED_TAGS = [
  'script', 'style', 'noscript', 'iframe', 'form', 'button', 'input', 'select', 'textarea', 'svg',
  'canvas', 'object', 'embed', 'template', 'dialog', 'link', 'meta',
] as const;

/**
 * Converts an element's content to clean markdown, changing the element as it goes (turndown
 * collapses its white space): it belongs to a page parsed for this. `baseUrl` is the URL relative
 * links resolve against: the page URL, or its `<base href>` resolved against it.
 */
export function htmlToMarkdown(root: Element, baseUrl: string, maxChars = MAX_MARKDOWN_CHARS): string {
  converter ??= createConverter();
  converter.baseUrl = baseUrl;
  return tidyMarkdown(converter.service.turndown(withoutCopy(root)), maxChars);
}

/**
 * The element, made to stand for its own copy: turndown converts a deep copy of the element it is
 * given (`cloneNode(true)`, turndown 7.2), to leave the caller's DOM as it was, and that copy was
 * a tenth of a page's conversion and of its collections (docs/decisions/page-reading.md).
 */
function withoutCopy(root: Element): Element {
  Object.defineProperty(root, 'cloneNode', { value: () => root, configurable: true });
  return root;
}

/** One converter per thread: its rules are the same for every page, but for the base URL links resolve against. */
let converter: { service: TurndownService; baseUrl: string } | null = null;

function createConverter() {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
    strongDelimiter: '**',
    hr: '---',
  });
  const state = { service, baseUrl: '' };
  service.use([strikethrough, taskListItems]);
  service.remove([...REMOVED_TAGS] as TurndownService.TagName[]);
  // Most text has nothing markdown would read as syntax: turndown's thirteen replacements each make a copy.
  const escape = service.escape.bind(service);
  service.escape = (text) => (MAY_NEED_ESCAPE.test(text) ? escape(text) : text);
  addTableRules(service);
  service.addRule('emptyHeading', {
    filter: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
    replacement: (content, node) => {
      const text = content.replace(/\s+/g, ' ').trim();
      if (!text) return '';
      return `\n\n${'#'.repeat(Number(node.nodeName.charAt(1)))} ${text}\n\n`;
    },
  });
  service.addRule('listItem', {
    filter: 'li',
    replacement: (content, node) => {
      // Turndown pads markers to four columns ("-   item"); one space reads better.
      const parent = node.parentNode as HTMLElement | null;
      let prefix = '- ';
      if (parent?.nodeName === 'OL') {
        const start = Number(parent.getAttribute('start') ?? 1) || 1;
        prefix = `${start + [...parent.children].indexOf(node)}. `;
      }
      const isParagraph = /\n$/.test(content);
      const body = withoutEdgeNewlines(content) + (isParagraph ? '\n' : '');
      return prefix + body.replace(/\n/g, `\n${' '.repeat(prefix.length)}`) + (node.nextSibling ? '\n' : '');
    },
  });
  service.addRule('codeBlock', {
    filter: (node) => node.nodeName === 'PRE',
    replacement: (_content, node) => fencedCode(node, codeLanguage(node)),
  });
  addLinkRules(service, state);
  return state;
}

/** Links and images with absolute URLs, resolved against the converter's current base URL. */
function addLinkRules(service: TurndownService, state: { baseUrl: string }): void {
  service.addRule('absoluteLink', {
    filter: (node) => node.nodeName === 'A' && node.hasAttribute('href'),
    replacement: (content, node) => {
      const text = joinedLines(content).trim();
      const href = resolveUrl(node.getAttribute('href'), state.baseUrl, ['http:', 'https:', 'mailto:']);
      if (!text) return '';
      return href ? `[${text}](${markdownUrl(href)})` : text;
    },
  });
  service.addRule('absoluteImage', {
    filter: 'img',
    replacement: (_content, node) => {
      const source = node.getAttribute('src') || node.getAttribute('data-src');
      const src = resolveUrl(source, state.baseUrl, ['http:', 'https:']);
      if (!src || node.getAttribute('width') === '1' || node.getAttribute('height') === '1') return '';
      const alt = (node.getAttribute('alt') ?? '').replace(/\s+/g, ' ').replace(/[[\]]/g, '').trim();
      return `![${alt}](${markdownUrl(src)})`;
    },
  });
}

/**
 * What turndown's escape (escapeMarkdown, turndown 7.2) would change: \ * ` [ ] _ anywhere, and
 * - + = # ~ > or a digit at the start of the text.
 */
const MAY_NEED_ESCAPE = /[\\*`[\]_]|^[-+=#~>\d]/;

/** Resolves a link against the base URL; null for empty, unparseable or unwanted schemes (javascript:, data:). */
export function resolveUrl(href: string | null, baseUrl: string, schemes: readonly string[]): string | null {
  if (!href || !href.trim()) return null;
  try {
    const url = new URL(href.trim(), baseUrl);
    return schemes.includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

/** Parentheses and spaces would end or break a markdown link target. */
function markdownUrl(url: string): string {
  return url.replace(/\s/g, '%20').replace(/\(/g, '%28').replace(/\)/g, '%29');
}

function codeLanguage(pre: Element): string {
  const candidates = [pre.querySelector('code'), pre, pre.parentElement, pre.parentElement?.parentElement];
  for (const element of candidates) {
    const className = element?.getAttribute('class') ?? '';
    const match =
      /(?:^|\s)(?:language|lang|highlight(?:-source)?)-([\w+#-]+)/.exec(className) ??
      /\bbrush:\s*([\w+#-]+)/.exec(className) ??
      /(?:^|\s)sourceCode\s+([\w+#-]+)/.exec(className);
    if (match && !/^(?:none|text|default|plaintext)$/i.test(match[1])) return match[1].toLowerCase();
    const dataLang = element?.getAttribute('data-lang') ?? element?.getAttribute('data-language');
    if (dataLang) return dataLang.toLowerCase();
  }
  return '';
}

/**
 * Longest run of blanks kept in a code block: turndown's last step (/[\t\r\n\s]+$/ over the
 * whole markdown) reads a run to its end from each of its characters.
 */
const MAX_CODE_BLANK_RUN = 200;
const LONG_BLANK_RUN = new RegExp(`\\s{${MAX_CODE_BLANK_RUN + 1},}`, 'g');

function fencedCode(pre: Element, language: string): string {
  const code = (pre.textContent ?? '').replace(/^\n+/, '').trimEnd().replace(LONG_BLANK_RUN, (run) => run.slice(0, MAX_CODE_BLANK_RUN));
  if (!code) return '';
  // A fence longer than any run of backticks inside the code.
  const longestRun = Math.max(0, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return `\n\n${fence}${language}\n${code}\n${fence}\n\n`;
}

// Tables become GFM tables (first row as header); layout tables (nested tables, a single cell)
// become their cells' content.
function addTableRules(service: TurndownService): void {
  const layoutTables = new WeakMap<Element, boolean>();
  const isLayout = (table: Element | null): boolean => {
    if (!table) return true;
    let layout = layoutTables.get(table);
    if (layout === undefined) {
      const cells = table.querySelectorAll('td, th').length;
      layout = table.querySelector('table') !== null || cells <= 1;
      layoutTables.set(table, layout);
    }
    return layout;
  };
  const tableOf = (node: Element): Element | null => node.closest('table') as Element | null;

  service.addRule('tableCell', {
    filter: ['th', 'td'],
    replacement: (content, node) => {
      if (isLayout(tableOf(node))) return `\n\n${content}\n\n`;
      return ` ${joinedLines(content).replace(/\|/g, '\\|').trim()} |`;
    },
  });
  service.addRule('tableRow', {
    filter: 'tr',
    replacement: (content, node) => (isLayout(tableOf(node)) ? content : `\n|${content}`),
  });
  service.addRule('tableSection', {
    filter: ['thead', 'tbody', 'tfoot'],
    replacement: (content) => content,
  });
  service.addRule('tableCaption', { filter: 'caption', replacement: () => '' });
  service.addRule('table', {
    filter: 'table',
    replacement: (content, node) => {
      if (isLayout(node)) return `\n\n${content}\n\n`;
      const rows = content.split('\n').filter((row) => row.startsWith('|'));
      if (rows.length === 0) return '';
      const columns = Math.max(...rows.map((row) => row.split(/(?<!\\)\|/).length - 2));
      const pad = (row: string) => row + ' |'.repeat(Math.max(0, columns - (row.split(/(?<!\\)\|/).length - 2)));
      const separator = `|${' --- |'.repeat(columns)}`;
      const caption = node.querySelector('caption')?.textContent?.replace(/\s+/g, ' ').trim();
      const lines = [pad(rows[0]), separator, ...rows.slice(1).map(pad)];
      return `\n\n${caption ? `${caption}\n\n` : ''}${lines.join('\n')}\n\n`;
    },
  });
}

/** Normalizes blank lines and trailing spaces, and bounds the size at a paragraph boundary. */
export function tidyMarkdown(markdown: string, maxChars = MAX_MARKDOWN_CHARS): string {
  let text = markdown
    .replace(TRAILING_BLANKS, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (text.length > maxChars) {
    const cut = text.lastIndexOf('\n\n', maxChars);
    text = text.slice(0, cut > maxChars / 2 ? cut : maxChars).trimEnd();
    // Close a code block the cut left open.
    const fences = text.match(/^(`{3,}|~{3,})/gm) ?? [];
    if (fences.length % 2 === 1) text += `\n${fences[fences.length - 1]}`;
    text += `\n\n[…] (cut here: the page goes on beyond ${maxChars.toLocaleString('en')} characters; the rest is at its source URL)`;
  }
  return text;
}

// Whitespace handled run by run: /\s*\n\s*/, /\n+$/ and /[ \t]+$/m read a long run to its end
// from each of its characters (quadratic in a page of blanks).
/**
 * Blanks before a line's end or the text's: the lookbehind starts a match only where a run
 * starts (linear in a page of blanks), and no function is called per run between two words (a
 * 25th of the time a callback took).
 */
const TRAILING_BLANKS = /(?<![ \t])[ \t]+(?=[\n\r\u2028\u2029]|$)/g;

/** Each run of whitespace that holds a line break, as one space. */
function joinedLines(text: string): string {
  return text.replace(/\s+/g, (run) => (run.includes('\n') ? ' ' : run));
}

/** Without its leading and trailing line breaks. */
function withoutEdgeNewlines(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === '\n') end--;
  return text.slice(0, end).replace(/^\n+/, '');
}
