// Turns response bytes into text the way a browser would: BOM first, then the
// Content-Type charset, then a <meta> or XML declaration near the top, else UTF-8.
// Decoding never throws: bytes that are invalid in the charset become U+FFFD.
import { isUtf8 } from 'node:buffer';

/** How far into the body to look for `<meta charset>` (the HTML spec prescans 1024 bytes). */
const SNIFF_BYTES = 2048;

export function charsetFromContentType(contentType: string | null | undefined): string | null {
  if (!contentType) return null;
  const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType);
  return match ? match[1] : null;
}

function bomOf(body: Uint8Array): { encoding: string; length: number } | null {
  if (body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (body.length >= 2 && body[0] === 0xff && body[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (body.length >= 2 && body[0] === 0xfe && body[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  return null;
}

/** Charset declared by `<meta charset>`, `<meta http-equiv content="...charset=">` or `<?xml encoding=?>`. */
export function sniffDeclaredCharset(body: Uint8Array): string | null {
  const head = Buffer.from(body.buffer, body.byteOffset, Math.min(body.length, SNIFF_BYTES)).toString('latin1');
  const xml = /^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([^"']+)["']/i.exec(head);
  if (xml) return xml[1];
  const meta = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head);
  if (!meta) return null;
  // A page whose <meta> is readable as ASCII cannot really be UTF-16 (HTML spec, prescan).
  return /^utf-?16/i.test(meta[1]) ? 'utf-8' : meta[1];
}

export function decodeBody(body: Uint8Array, contentType?: string | null): string {
  return decodePage(body, contentType).text;
}

/**
 * The body's text, and whether the body is that text's UTF-8 byte for byte (decoded as UTF-8,
 * valid, no BOM, no NUL): a hash of the bytes is then the hash of the text, without encoding it
 * again. `bytesAreUtf8Text` is checked when it is read.
 */
export function decodePage(body: Uint8Array, contentType?: string | null): { text: string; readonly bytesAreUtf8Text: boolean } {
  const bom = bomOf(body);
  const label = bom ? bom.encoding : (charsetFromContentType(contentType) ?? sniffDeclaredCharset(body) ?? 'utf-8');
  return {
    text: withoutNul(decodeAs(label, bom ? body.subarray(bom.length) : body)),
    get bytesAreUtf8Text() {
      return !bom && (decoderFor(label)?.encoding ?? 'utf-8') === 'utf-8' && isUtf8(body) && !body.includes(0);
    },
  };
}

/**
 * U+0000 is dropped: no page means it as text (a browser's parser drops or replaces it), and
 * PostgreSQL cannot store it in text, so a page holding one failed its whole job.
 */
function withoutNul(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '') : text;
}

const decoders = new Map<string, TextDecoder | null>();

function decoderFor(label: string): TextDecoder | null {
  const key = label.trim().toLowerCase();
  let decoder = decoders.get(key);
  if (decoder === undefined) {
    try {
      decoder = new TextDecoder(key);
    } catch {
      decoder = null; // an unknown label: fall back to UTF-8 like browsers do
    }
    if (decoders.size < 64) decoders.set(key, decoder);
  }
  return decoder;
}

export function decodeAs(label: string, body: Uint8Array): string {
  const decoder = decoderFor(label);
  const encoding = decoder?.encoding ?? 'utf-8';
  if (encoding === 'utf-8') return Buffer.from(body.buffer, body.byteOffset, body.length).toString('utf8');
  if (encoding === 'windows-1252' && WINDOWS_1252_IS_BROKEN) return decodeWindows1252(body);
  return decoder!.decode(body);
}

// Node 20's TextDecoder takes a Latin-1 fast path for windows-1252 (and its aliases
// iso-8859-1, latin1, ascii), turning 0x80-0x9F into C1 controls instead of € ‘ ’ “ ” — .
// Checked at startup so a fixed Node uses its own decoder again.
const WINDOWS_1252_IS_BROKEN = new TextDecoder('windows-1252').decode(Uint8Array.of(0x80)) !== '\u20ac';

// 0x80-0x9F of windows-1252 (WHATWG index); the five unassigned bytes map to C1 controls.
const WINDOWS_1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

function decodeWindows1252(body: Uint8Array): string {
  const latin1 = Buffer.from(body.buffer, body.byteOffset, body.length).toString('latin1');
  return latin1.replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]);
}
