// What the crawler needs from a page, in one pass of htmlparser2's tokenizer (no DOM,
// not even its Parser: the Parser builds an attribute object for every tag and keeps a
// tag stack, which more than doubles the cost; we look at six tag names and four
// attributes and ignore everything else): links, <base>, canonical URL, robots meta
// directives and title.
import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import { ROBOTS_USER_AGENT } from './limits.ts';
import { DEFAULT_MAX_URL_LENGTH, normalizeUrl, resolveUrl } from './normalize-url.ts';

export interface PageLinks {
  /** Normalized, de-duplicated http(s) links, in document order, at most maxLinks. */
  links: string[];
  /**
   * The link as the page wrote it (resolved, without its fragment) where normalising changed it,
   * for instance by sorting its query: robots.txt rules are matched against what the site wrote.
   */
  writtenAs: Map<string, string>;
  canonical: string | null;
  /** `<meta http-equiv="refresh" content="0; url=…">`: the page forwards there, like a redirect. */
  refresh: string | null;
  /** `<meta name="robots" content="noindex">` (or `none`), also for our own agent name. */
  noindex: boolean;
  nofollow: boolean;
  title: string | null;
  /** `<link rel="alternate" type="text/markdown" href>`: the page's own markdown copy. */
  markdown: string | null;
}

export interface ExtractOptions {
  maxLinks?: number;
  maxUrlLength?: number;
}

const MAX_TITLE_CHARS = 1000;
const SKIPPED_SCHEMES = /^\s*(?:#|javascript:|mailto:|tel:|data:|about:|blob:)/i;
const TAGS = new Set(['a', 'area', 'base', 'link', 'meta', 'title']);
type Attribute = 'href' | 'rel' | 'name' | 'content' | 'http-equiv' | 'type';
const ATTRIBUTES = new Set<string>(['href', 'rel', 'name', 'content', 'http-equiv', 'type']);
const MARKDOWN_TYPE = /^\s*text\/(?:x-)?markdown\s*(?:;|$)/i;

// Called for every tag of every page: rule out most tag names by length and first
// letter before allocating a lowercase copy (a, area, base, link, meta, title).
function mayBeWantedTag(html: string, start: number, end: number): boolean {
  const length = end - start;
  if (length !== 1 && length !== 4 && length !== 5) return false;
  const first = html.charCodeAt(start) | 0x20; // ASCII lowercase
  return first === 0x61 || first === 0x62 || first === 0x6c || first === 0x6d || first === 0x74;
}

export function extractLinks(html: string, pageUrl: string, options: ExtractOptions = {}): PageLinks {
  const scan = scanLinks(html, options);
  const tokenizer = new Tokenizer({ decodeEntities: true }, scan.tokens);
  tokenizer.write(html);
  tokenizer.end();
  return scan.links(pageUrl);
}

export interface LinkScan {
  /** Callbacks for a tokenizer that is given `html` in one piece: alone, or beside a parser's (see page-facts.ts). */
  tokens: TokenizerCallbacks;
  /** What the page links to, once the tokenizer has ended. */
  links(pageUrl: string): PageLinks;
}

/** extractLinks in two halves, so a caller that tokenizes the page anyway reads its links in the same pass. */
export function scanLinks(html: string, options: ExtractOptions = {}): LinkScan {
  const scan = new PageScan(html, options.maxLinks ?? 2000);
  return { tokens: scan, links: (pageUrl) => resolveLinks(scan, pageUrl, options.maxUrlLength ?? DEFAULT_MAX_URL_LENGTH) };
}

function resolveLinks(scan: PageScan, pageUrl: string, maxUrlLength: number): PageLinks {
  // Raw hrefs are resolved at the end: <base> applies to every link, wherever it appears.
  const baseUrl = (scan.base !== null && normalizeUrl(scan.base.trim(), pageUrl, maxUrlLength)) || pageUrl;
  const links: string[] = [];
  const writtenAs = new Map<string, string>();
  const seen = new Set<string>();
  for (const raw of scan.rawLinks) {
    const resolved = resolveUrl(raw.trim(), baseUrl, maxUrlLength);
    if (resolved !== null && !seen.has(resolved.normalized)) {
      seen.add(resolved.normalized);
      links.push(resolved.normalized);
      if (resolved.written !== resolved.normalized) writtenAs.set(resolved.normalized, resolved.written);
    }
  }
  const canonical = scan.canonical !== null ? normalizeUrl(scan.canonical.trim(), baseUrl, maxUrlLength) : null;
  const refresh = scan.refresh !== null ? normalizeUrl(scan.refresh, baseUrl, maxUrlLength) : null;
  const title = scan.title !== null ? scan.title.replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE_CHARS) : '';
  const markdown = scan.markdown !== null ? normalizeUrl(scan.markdown.trim(), baseUrl, maxUrlLength) : null;
  return { links, writtenAs, canonical, refresh, noindex: scan.noindex, nofollow: scan.nofollow, title: title || null, markdown };
}

/** Tokenizer callbacks; positions are offsets into `html` (it is written in one piece). */
class PageScan implements TokenizerCallbacks {
  readonly rawLinks = new Set<string>();
  base: string | null = null;
  canonical: string | null = null;
  refresh: string | null = null;
  noindex = false;
  nofollow = false;
  title: string | null = null;
  markdown: string | null = null;

  private tag: string | null = null; // the open tag, when it is one of TAGS
  private href: string | undefined;
  private rel: string | undefined;
  private name: string | undefined;
  private content: string | undefined;
  private 'http-equiv': string | undefined;
  private type: string | undefined;
  private attribName: Attribute | null = null;
  private attribValue = '';
  private inTitle = false;
  private titleDone = false;

  private readonly html: string;
  private readonly maxLinks: number;

  constructor(html: string, maxLinks: number) {
    this.html = html;
    this.maxLinks = maxLinks;
  }

  onopentagname(start: number, end: number): void {
    this.tag = null;
    if (!mayBeWantedTag(this.html, start, end)) return;
    const name = this.html.slice(start, end).toLowerCase();
    if (!TAGS.has(name)) return;
    this.tag = name;
    this.href = this.rel = this.name = this.content = this['http-equiv'] = this.type = undefined;
  }

  onattribname(start: number, end: number): void {
    if (this.tag === null) return;
    const name = this.html.slice(start, end).toLowerCase();
    // The first of repeated attributes wins, as in browsers.
    this.attribName = ATTRIBUTES.has(name) && this[name as Attribute] === undefined ? (name as Attribute) : null;
    this.attribValue = '';
  }

  onattribdata(start: number, end: number): void {
    if (this.attribName !== null) this.attribValue += this.html.slice(start, end);
  }

  onattribentity(codepoint: number): void {
    if (this.attribName !== null) this.attribValue += String.fromCodePoint(codepoint);
  }

  onattribend(): void {
    if (this.attribName !== null) this[this.attribName] = this.attribValue;
    this.attribName = null;
  }

  onopentagend(): void {
    this.openTag();
  }

  onselfclosingtag(): void {
    this.openTag();
  }

  private openTag(): void {
    const tag = this.tag;
    if (tag === null) return;
    this.tag = null;
    switch (tag) {
      case 'a':
      case 'area': {
        const href = this.href;
        if (href === undefined || this.rawLinks.size >= this.maxLinks || SKIPPED_SCHEMES.test(href)) return;
        if (this.rel !== undefined && hasToken(this.rel, 'nofollow')) return;
        this.rawLinks.add(href);
        return;
      }
      case 'base':
        if (this.base === null) this.base = this.href ?? null;
        return;
      case 'link':
        if (this.rel === undefined) return;
        if (this.canonical === null && hasToken(this.rel, 'canonical')) this.canonical = this.href ?? null;
        if (this.markdown === null && this.type !== undefined && MARKDOWN_TYPE.test(this.type) && hasToken(this.rel, 'alternate')) this.markdown = this.href ?? null;
        return;
      case 'meta': {
        const name = this.name?.toLowerCase();
        const content = this.content;
        if (this.refresh === null && this['http-equiv']?.toLowerCase() === 'refresh' && content !== undefined) {
          // Trimmed first: two whitespace runs with nothing required between them read a long run from each of its characters.
          this.refresh = /^\d*(?:\.\d*)?\s*[;,]\s*url\s*=\s*['"]?([^'"\s]+)/i.exec(content.trimStart())?.[1] ?? null;
        }
        if ((name === 'robots' || name === ROBOTS_USER_AGENT) && content !== undefined) {
          const directives = robotsDirectives(content);
          this.noindex ||= directives.noindex;
          this.nofollow ||= directives.nofollow;
        }
        return;
      }
      case 'title':
        if (!this.titleDone) {
          this.inTitle = true;
          this.title = '';
        }
    }
  }

  ontext(start: number, end: number): void {
    if (this.inTitle && this.title!.length < MAX_TITLE_CHARS) this.title += this.html.slice(start, end);
  }

  ontextentity(codepoint: number): void {
    if (this.inTitle && this.title!.length < MAX_TITLE_CHARS) this.title += String.fromCodePoint(codepoint);
  }

  onclosetag(start: number, end: number): void {
    if (this.inTitle && this.html.slice(start, end).toLowerCase() === 'title') {
      this.inTitle = false;
      this.titleDone = true;
    }
  }

  oncdata(): void {}
  oncomment(): void {}
  ondeclaration(): void {}
  onend(): void {}
  onprocessinginstruction(): void {}
}

/** Directives of a robots meta tag or X-Robots-Tag header value. */
export function robotsDirectives(value: string): { noindex: boolean; nofollow: boolean } {
  const tokens = value.toLowerCase().split(/[\s,]+/);
  const none = tokens.includes('none');
  return { noindex: none || tokens.includes('noindex'), nofollow: none || tokens.includes('nofollow') };
}

// X-Robots-Tag values may name the crawler they are for: `googlebot: noindex`. These
// directive names contain a colon themselves and are not crawler names.
const COLON_DIRECTIVES = new Set(['unavailable_after', 'max-snippet', 'max-image-preview', 'max-video-preview']);

/** Directives of X-Robots-Tag headers that apply to us (untargeted, or for our agent). */
export function headerRobotsDirectives(header: string | string[] | undefined): { noindex: boolean; nofollow: boolean } {
  const result = { noindex: false, nofollow: false };
  for (const value of header === undefined ? [] : Array.isArray(header) ? header : [header]) {
    const target = /^\s*([\w-]+)\s*:(.*)$/.exec(value);
    let directives = value;
    if (target && !COLON_DIRECTIVES.has(target[1].toLowerCase())) {
      if (target[1].toLowerCase() !== ROBOTS_USER_AGENT) continue;
      directives = target[2];
    }
    const found = robotsDirectives(directives);
    result.noindex ||= found.noindex;
    result.nofollow ||= found.nofollow;
  }
  return result;
}

function hasToken(list: string, token: string): boolean {
  return list.toLowerCase().split(/\s+/).includes(token);
}
