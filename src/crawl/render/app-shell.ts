/**
 * Does a page's HTML look like an application shell, a page its scripts build in the browser? Read
 * in one pass of htmlparser2's tokenizer: the text outside scripts and styles, the scripts, the
 * links, and whether a mount point (`<div id="root">`, `#app`, `#__next`…) is empty.
 */
import { Parser } from 'htmlparser2';

/** The thresholds, in one place (docs/decisions/rendering.md). */
export const APP_SHELL = {
  /** Fewer visible characters than this is "little text". */
  maxTextChars: 300,
  /** A page linking to this many pages or more has content of its own to follow. */
  maxLinks: 3,
  /** Only the first part of a page is read: a shell is small. */
  maxScannedChars: 256 * 1024,
  /** Ids and attributes of the mount points frameworks render into. */
  mountIds: new Set(['root', 'app', '__next', '__nuxt', 'svelte', 'main', 'application', 'react-root', 'q-app']),
  mountAttributes: ['data-reactroot', 'data-server-rendered', 'ng-version', 'ng-app'],
} as const;

const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'head', 'title']);
// Elements that cannot have content, so never keep a mount point "open".
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

export interface ShellSigns {
  textChars: number;
  scripts: number;
  links: number;
  emptyMountPoint: boolean;
}

export function shellSigns(html: string): ShellSigns {
  const signs: ShellSigns = { textChars: 0, scripts: 0, links: 0, emptyMountPoint: false };
  let hidden = 0;
  // The depth of an open mount point, and whether anything was put in it.
  let mountDepth = -1;
  let mountFilled = false;
  let depth = 0;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (mountDepth >= 0 && depth > mountDepth) mountFilled = true;
        if (name === 'script' && (attributes.src || attributes.type === 'module' || !attributes.type)) signs.scripts++;
        if (name === 'a' && attributes.href && !attributes.href.startsWith('#')) signs.links++;
        if (HIDDEN.has(name)) hidden++;
        if (VOID.has(name)) return;
        depth++;
        const isMount = APP_SHELL.mountIds.has(attributes.id ?? '') || APP_SHELL.mountAttributes.some((a) => a in attributes);
        if (isMount && mountDepth < 0 && !signs.emptyMountPoint) {
          mountDepth = depth;
          mountFilled = false;
        }
      },
      ontext(text) {
        if (hidden > 0) return;
        const chars = text.replace(/\s+/g, '').length;
        signs.textChars += chars;
        if (chars > 0 && mountDepth >= 0) mountFilled = true;
      },
      onclosetag(name) {
        if (HIDDEN.has(name)) hidden = Math.max(0, hidden - 1);
        if (VOID.has(name)) return;
        if (depth === mountDepth) {
          if (!mountFilled) signs.emptyMountPoint = true;
          mountDepth = -1;
        }
        depth = Math.max(0, depth - 1);
      },
    },
    { decodeEntities: true },
  );
  parser.write(html.length > APP_SHELL.maxScannedChars ? html.slice(0, APP_SHELL.maxScannedChars) : html);
  parser.end();
  return signs;
}

/** Little text and a script bundle, and either an empty mount point or next to no links. */
export function looksLikeAppShell(html: string): boolean {
  const signs = shellSigns(html);
  return signs.scripts > 0 && signs.textChars < APP_SHELL.maxTextChars && (signs.emptyMountPoint || signs.links < APP_SHELL.maxLinks);
}
