// Runs in a worker thread (see extract-pool.ts): parsing and converting a page is CPU work that
// would otherwise hold the API's event loop for tens of milliseconds per page.
import { extractPage, type ExtractedPage } from './extract.ts';

export default function extractInWorker(task: { html: string; url: string }): ExtractedPage {
  return extractPage(task.html, task.url);
}
