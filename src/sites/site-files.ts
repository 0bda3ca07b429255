/**
 * A site's hosted files: their size and ETag in site_files, their text in site_file_parts, written
 * a part per statement. The embedded database keeps, for good, the memory its largest statement
 * needed: a large llms-full.txt sent whole would leave it that much larger.
 */
import { createHash } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Database, Transaction } from '../db/database.ts';
import { and, asc, eq, sql } from '../db/orm.ts';
import { siteFileParts, siteFiles } from '../db/schema.ts';
import { errors } from '../errors.ts';
import type { FileSize } from '../llms-txt/index.ts';

export type SiteFileKind = 'llms' | 'full' | 'previous-llms' | 'previous-full';

/** Characters per part; migration 0011 cut the files stored before it the same way. */
export const FILE_PART_CHARS = 131_072;

/** A strong ETag naming a text by its content. */
export function contentEtag(content: string): string {
  return `"${createHash('sha256').update(content).digest('base64url').slice(0, 27)}"`;
}

/**
 * Stores a file, replacing the one of the same kind; within the caller's transaction. Its row goes
 * first (the parts reference it), its size last: a generation thread counts the tokens while the
 * text is written.
 */
export async function writeSiteFile(tx: Transaction, siteId: string, kind: 'llms' | 'full', content: string, size: FileSize | Promise<FileSize>): Promise<void> {
  const sized = Promise.resolve(size);
  // Awaited last: failing meanwhile, it fails the transaction there, not the process.
  sized.catch(() => {});
  const etag = contentEtag(content);
  await tx
    .insert(siteFiles)
    .values({ siteId, kind, etag, bytes: 0, tokens: 0 })
    .onConflictDoUpdate({ target: [siteFiles.siteId, siteFiles.kind], set: { etag: sql`excluded.etag`, updatedAt: sql`now()` } });
  await tx.delete(siteFileParts).where(and(eq(siteFileParts.siteId, siteId), eq(siteFileParts.kind, kind)));
  let part = 0;
  for (const text of fileParts(content)) {
    await tx.insert(siteFileParts).values({ siteId, kind, part: part++, content: text });
    // The embedded database runs on this thread: between statements, requests answered from memory go on.
    await yieldToEventLoop();
  }
  const { bytes, tokens } = await sized;
  await tx.update(siteFiles).set({ bytes, tokens }).where(and(eq(siteFiles.siteId, siteId), eq(siteFiles.kind, kind)));
}

/** A hosted file's current version, public by its site id: anyone with the URL may read what the owner published. */
export async function siteFileVersion(db: Database, siteId: string, kind: SiteFileKind): Promise<{ etag: string; updatedAt: Date }> {
  const [file] = await db
    .select({ etag: siteFiles.etag, updatedAt: siteFiles.updatedAt })
    .from(siteFiles)
    .where(and(eq(siteFiles.siteId, siteId), eq(siteFiles.kind, kind)));
  if (!file) throw errors.fileNotFound();
  return file;
}

/**
 * The UTF-8 bytes of a file's version `etag`, or null when that version is no longer the stored
 * one. One statement: a file replaced while it is read is read whole, before or after.
 */
export async function readSiteFileBytes(db: Database, siteId: string, kind: SiteFileKind, etag: string): Promise<Buffer | null> {
  const parts = await db
    .select({ content: siteFileParts.content })
    .from(siteFileParts)
    .innerJoin(siteFiles, and(eq(siteFiles.siteId, siteFileParts.siteId), eq(siteFiles.kind, siteFileParts.kind)))
    .where(and(eq(siteFileParts.siteId, siteId), eq(siteFileParts.kind, kind), eq(siteFiles.etag, etag)))
    .orderBy(asc(siteFileParts.part));
  if (parts.length === 0) return null;
  // Each part written straight into one buffer: no joined string, no buffer per part.
  const bytes = Buffer.allocUnsafe(parts.reduce((sum, { content }) => sum + Buffer.byteLength(content), 0));
  let offset = 0;
  for (const { content } of parts) offset += bytes.write(content, offset);
  return bytes;
}

/** Cuts a text every `partChars` characters, never between the two halves of a surrogate pair; an empty text is one empty part. */
export function* fileParts(text: string, partChars = FILE_PART_CHARS): Generator<string> {
  let start = 0;
  do {
    let end = Math.min(text.length, start + partChars);
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    yield text.slice(start, end);
    start = end;
  } while (start < text.length);
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
