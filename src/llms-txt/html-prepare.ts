// Shrinks raw HTML before it is parsed: a DOM costs time and memory per node, and modern pages
// carry megabytes of inline scripts, styles and SVG that never become content.

/** Raw HTML beyond this is cut before anything else looks at it. */
export const MAX_RAW_HTML_CHARS = 12_000_000;
/** HTML left after stripping that is handed to the DOM parser. */
export const MAX_PARSED_HTML_CHARS = 3_000_000;

export interface PreparedHtml {
  html: string;
  /** True when the page was cut to fit the limits. */
  truncated: boolean;
}

const OPENER = /<!--|<(script|style|svg|template)\b/gi;

/**
 * Removes comments, `<script>` (except JSON-LD metadata), `<style>`, `<template>` and the inside
 * of `<svg>`, then bounds the size. One left-to-right scan, linear in the input: a construct
 * that is never closed swallows the rest of the page, as it does in an HTML parser.
 */
export function prepareHtml(
  raw: string,
  limits: { maxRawChars?: number; maxParsedChars?: number } = {},
): PreparedHtml {
  const maxRaw = limits.maxRawChars ?? MAX_RAW_HTML_CHARS;
  const maxParsed = limits.maxParsedChars ?? MAX_PARSED_HTML_CHARS;
  let truncated = raw.length > maxRaw;
  const html = truncated ? raw.slice(0, maxRaw) : raw;

  const kept: string[] = [];
  let position = 0;
  OPENER.lastIndex = 0;
  for (let match = OPENER.exec(html); match; match = OPENER.exec(html)) {
    const start = match.index;
    kept.push(html.slice(position, start));
    const tag = match[1]?.toLowerCase();
    let end: number;
    if (!tag) {
      const close = html.indexOf('-->', start + 4);
      end = close < 0 ? html.length : close + 3;
    } else {
      const openEnd = html.indexOf('>', start);
      const closeAt = openEnd < 0 ? -1 : indexOfCaseInsensitive(html, `</${tag}`, openEnd);
      const closeEnd = closeAt < 0 ? -1 : html.indexOf('>', closeAt);
      end = closeEnd < 0 ? html.length : closeEnd + 1;
      const openTag = openEnd < 0 ? '' : html.slice(start, openEnd + 1);
      if (tag === 'script' && /type\s*=\s*["']?application\/ld\+json/i.test(openTag)) {
        kept.push(html.slice(start, end));
      } else if (tag === 'svg') {
        kept.push('<svg></svg>');
      }
    }
    position = end;
    OPENER.lastIndex = end;
  }
  kept.push(html.slice(position));
  let result = kept.join('');
  if (result.length > maxParsed) {
    result = result.slice(0, maxParsed);
    truncated = true;
  }
  return { html: result, truncated };
}

/**
 * A page with its `<html>`, `<head>` and `<body>` tags, which HTML lets a page leave out (hand-written
 * pages often do): linkedom, which builds the DOM, then left the content outside the body, or made
 * no document at all, and the page's markdown was empty. The head is the leading run of what only
 * a head holds (title, meta, link, base, style, scripts), as an HTML parser decides; the rest is the
 * body. A page with all three is left as it is.
 */
export function withDocumentTags(html: string): string {
  if (HAS_HTML.test(html) && HAS_HEAD.test(html) && HAS_BODY.test(html)) return html;
  const htmlAttributes = /<html(\s[^>]*)?>/i.exec(html)?.[1] ?? '';
  const bodyAttributes = /<body(\s[^>]*)?>/i.exec(html)?.[1] ?? '';
  const inner = html.replace(DOCUMENT_TAGS, '');
  HEAD_ONLY.lastIndex = 0;
  let headEnd = 0;
  while (HEAD_ONLY.exec(inner)) headEnd = HEAD_ONLY.lastIndex;
  return `<!DOCTYPE html><html${htmlAttributes}><head>${inner.slice(0, headEnd)}</head><body${bodyAttributes}>${inner.slice(headEnd)}</body></html>`;
}

const HAS_HTML = /<html[\s>]/i;
const HAS_HEAD = /<head[\s>]/i;
const HAS_BODY = /<body[\s>]/i;
const DOCUMENT_TAGS = /<!doctype[^>]*>|<\/?(?:html|head|body)(?:\s[^>]*)?>/gi;
const HEAD_ONLY = /\s+|<(?:meta|link|base)\b[^>]*>|<(title|style|script|noscript)\b[^>]*>[\s\S]*?<\/\1\s*>/iy;

function indexOfCaseInsensitive(haystack: string, needle: string, from: number): number {
  const pattern = new RegExp(needle.replace(/[/]/g, '\\/'), 'gi');
  pattern.lastIndex = from;
  return pattern.exec(haystack)?.index ?? -1;
}
