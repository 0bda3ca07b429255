/** What the CLI's exit code says, for scripts: 0 means the files are written (or the answer printed). */
export const EXIT = {
  ok: 0,
  /** anything unexpected */
  internal: 1,
  /** bad arguments, a bad URL or pattern, a missing LLMSTXT_API_KEY */
  usage: 2,
  /** the site could not be read: unreachable, no pages, or the job failed */
  generationFailed: 3,
  /** the service refused the request (401, 402, 404, 429 …) */
  refused: 4,
  /** the service could not be reached */
  serviceUnreachable: 5,
  /** the cost was shown and the answer was no: nothing was started */
  declined: 6,
} as const;

/** An error the CLI reports as `llmstxt: <message>` with its exit code. */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(exitCode: number, message: string) {
    super(message);
    this.exitCode = exitCode;
  }
}
