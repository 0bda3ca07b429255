// Runs in a worker thread (see extract-pool.ts): parsing and converting a page is CPU work that
// would otherwise hold the API's event loop for tens of milliseconds per page.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { extractPage, type ExtractedPage } from './extract.ts';

export default function extractInWorker(task: { html: string; url: string }): ExtractedPage {
  return extractPage(task.html, task.url);
}

/**
 * Shrinks the thread's heap to what is alive, just before the pool ends the thread. Node 24's V8
 * keeps the heap pages of an ended thread for 8 seconds, garbage or not (in case another thread
 * wants them): about 60 MB per extraction thread, while the job goes on to render and store its
 * files. The pages a memory-reducing collection frees go back to the system at once. Not run
 * between pages: such a collection also drops compiled code, and extraction became several times
 * slower when it ran every 50 pages.
 */
export function releaseMemory(): void {
  collectGarbage({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

/** V8's `gc`, which only a context created while --expose-gc is set has (as jest-leak-detector gets it). */
const collectGarbage: (options: object) => void = (() => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');
  setFlagsFromString('--no-expose-gc');
  return gc;
})();
