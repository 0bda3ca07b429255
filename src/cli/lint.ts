/** `llmstxt lint <url|file>`: the service's checker (lint/checker.ts), run on this machine. */
import { stat, readFile } from 'node:fs/promises';
import { systemClock } from '../clock.ts';
import { RobotsCache } from '../crawl/index.ts';
import { lintText, lintUrl, LINT_BOUNDS, unreadable, type LintReport } from '../lint/checker.ts';
import { CliError, EXIT } from './errors.ts';

export async function lint(target: string): Promise<LintReport> {
  // As for a local generation, you name what is read: your intranet and localhost included.
  const deps = { crawl: { allowPrivate: true }, robots: new RobotsCache(systemClock) };
  if (/^https?:\/\//i.test(target)) return lintUrl(deps, target);
  const file = await stat(target).catch(() => {
    throw new CliError(EXIT.usage, `${target} is neither an http(s) URL nor a readable file`);
  });
  if (!file.isFile()) throw new CliError(EXIT.usage, `${target} is not a file`);
  if (file.size > LINT_BOUNDS.maxFileBytes) return unreadable(null, `${target} is larger than ${LINT_BOUNDS.maxFileBytes / 1024 / 1024} MB: not read`);
  return lintText(deps, await readFile(target, 'utf8'), file.mtime);
}

/** The report for a reader: the score, then each finding with its line. */
export function describeReport(report: LintReport): string {
  const head = `${report.fileUrl ?? 'file'}: ${report.score}/100 (${report.links.checked} of ${report.links.listed} links checked)`;
  const lines = report.findings.map((f) => `  ${f.line === null ? '     ' : `L${String(f.line).padEnd(4)}`} ${f.severity.padEnd(7)} ${f.code}: ${f.message}`);
  return [head, ...lines].join('\n');
}
