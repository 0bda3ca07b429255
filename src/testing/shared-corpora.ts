/**
 * The public corpora beside the project (`../shared/corpora/`). A user's clone has none: suites
 * that read them skip, and say so once with the folder they looked for, so a green run on a plain
 * clone never passes a skipped suite off as a passing one.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const CORPORA = join(import.meta.dirname, '../../../shared/corpora');

export interface SharedCorpus {
  path: string;
  /** false when the corpus is there; otherwise the reason to hand to `test(…, { skip })` */
  skip: false | string;
}

export function sharedCorpus(name: string): SharedCorpus {
  const path = join(CORPORA, name);
  if (existsSync(path)) return { path, skip: false };
  const reason = `../shared/corpora/${name} not found (a plain clone): skipped`;
  console.log(`note: ${reason}`);
  return { path, skip: reason };
}
