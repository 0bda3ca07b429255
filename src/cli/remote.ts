/**
 * The CLI's remote mode: the same work done by a service (LLMSTXT_API_URL, default
 * http://localhost:3000) with an account's key (LLMSTXT_API_KEY), through the typed client.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { PathFilters, RenderMode } from '../crawl/index.ts';
import { createApiClient, type ApiClient } from '../client/client.ts';
import type { GenerationMethod } from '../llms-txt/index.ts';
import { CliError, EXIT } from './errors.ts';
import type { Progress } from './progress.ts';

const POLL_MS = 1000;

export function remoteClient(env: NodeJS.ProcessEnv): { api: ApiClient; baseUrl: string } {
  const apiKey = env.LLMSTXT_API_KEY;
  if (!apiKey) throw new CliError(EXIT.usage, 'set LLMSTXT_API_KEY to an API key of your account (and LLMSTXT_API_URL to the service, default http://localhost:3000)');
  const baseUrl = env.LLMSTXT_API_URL || 'http://localhost:3000';
  return { api: createApiClient({ baseUrl, apiKey }), baseUrl };
}

export interface RemoteGenerateOptions extends PathFilters {
  maxUrls: number;
  method: GenerationMethod;
  full: boolean;
  maxTokens: number | null;
  out: string;
  /** start without asking, whatever it costs */
  yes: boolean;
  render: RenderMode;
  linkMarkdown: boolean;
}

/** How the CLI asks before spending: on a terminal, a question; otherwise, only with --yes. */
export interface Consent {
  interactive: boolean;
  ask(question: string): Promise<boolean>;
}

export const terminalConsent: Consent = {
  interactive: Boolean(process.stdin.isTTY && process.stderr.isTTY),
  async ask(question) {
    const prompt = createInterface({ input: process.stdin, output: process.stderr });
    try {
      return /^y(es)?$/i.test((await prompt.question(question)).trim());
    } finally {
      prompt.close();
    }
  },
};

const PHASE_LABELS: Record<string, string> = { discovering: 'Finding pages', fetching: 'Fetching pages', describing: 'Describing', writing: 'Writing' };

export async function generateRemotely(client: ReturnType<typeof remoteClient>, url: string, options: RemoteGenerateOptions, progress: Progress, consent: Consent) {
  const { api } = client;
  const body = {
    url,
    options: {
      maxUrls: options.maxUrls,
      generationMethod: options.method,
      showFullText: options.full,
      maxTokens: options.maxTokens,
      includePaths: options.includePaths,
      excludePaths: options.excludePaths,
      render: options.render,
      linkMarkdown: options.linkMarkdown,
    },
  };
  const estimate = answer(client, await call(client, () => api.POST('/api/v1/generate/estimate', { body })));
  console.error(priceLine(estimate));
  if (estimate.credits > 0 && !options.yes) {
    if (!consent.interactive) throw new CliError(EXIT.usage, `this job reserves ${estimate.credits} credits: add --yes to start it without being asked`);
    if (!(await consent.ask(`Spend up to ${estimate.credits} credits? [y/N] `))) throw new CliError(EXIT.declined, 'not started; nothing was charged');
  }
  const started = answer(client, await call(client, () => api.POST('/api/v1/generate', { body })));
  for (;;) {
    const job = answer(client, await call(client, () => api.GET('/api/v1/generate/{jobId}', { params: { path: { jobId: started.jobId } } })));
    if (job.phase) progress.update(PHASE_LABELS[job.phase] ?? job.phase, job.pagesDone ?? 0, job.pagesTotal);
    else progress.update(job.status === 'pending' ? 'Queued' : 'Generating', job.progress, 100);
    if (job.status === 'failed') throw new CliError(EXIT.generationFailed, job.error ?? 'the generation failed');
    if (job.status === 'completed') {
      progress.done();
      await mkdir(options.out, { recursive: true });
      const files = [];
      for (const [name, fileUrl, size] of [
        ['llms.txt', job.fileUrl, job.files?.llmsTxt],
        ['llms-full.txt', job.fullTextUrl, job.files?.llmsFullTxt],
      ] as const) {
        if (!fileUrl) continue;
        const path = join(options.out, name);
        await writeFile(path, await (await fetch(fileUrl)).text());
        files.push({ path, bytes: size?.bytes ?? null, tokens: size?.tokens ?? null });
      }
      return { url: job.url, jobId: job.id, creditsUsed: job.creditsUsed, pages: job.pagesGenerated, pagesLeftOut: job.pagesLeftOut, message: job.message, files };
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** What the start will reserve, and what comes back, in a line or two on stderr. */
function priceLine(estimate: { credits: number; generationMethod: string; maxUrls: number; refundRule: string; fromCache: boolean; message: string | null }): string {
  if (estimate.fromCache) return 'A recent generation with the same options answers this for 0 credits.';
  const lines = [`This job reserves ${estimate.credits} credits (${estimate.generationMethod}, up to ${estimate.maxUrls} pages). ${estimate.refundRule}.`];
  if (estimate.message) lines.push(`${estimate.message}.`);
  return lines.join('\n');
}

export async function balance(client: ReturnType<typeof remoteClient>) {
  return answer(client, await call(client, () => client.api.GET('/api/v1/credits/balance/api')));
}

export async function sites(client: ReturnType<typeof remoteClient>) {
  return answer(client, await call(client, () => client.api.GET('/api/v1/sites', { params: { query: { limit: 100 } } })));
}

/** A request the service could not be reached for is exit 5. */
async function call<T>(client: { baseUrl: string }, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    const reason = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    throw new CliError(EXIT.serviceUnreachable, `cannot reach the service at ${client.baseUrl} (${reason})`);
  }
}

/** The answer's data, or the service's own message with exit 4. */
function answer<T>(client: { baseUrl: string }, result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data !== undefined) return result.data;
  const message = (result.error as { message?: string } | undefined)?.message ?? `HTTP ${result.response.status}`;
  throw new CliError(EXIT.refused, `${client.baseUrl} answered ${result.response.status}: ${message}`);
}
