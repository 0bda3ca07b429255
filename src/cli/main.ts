/**
 * `llmstxt`: the command line (see `llmstxt --help`). Started by bin/llmstxt.mjs on the Node the
 * project pins. Results go to stdout (`--json` for scripts), progress and errors to stderr; the
 * exit code says what happened (errors.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError, EXIT } from './errors.ts';
import { generateLocally, prepareOutputFolder } from './local.ts';
import { describeReport, lint } from './lint.ts';
import { Progress } from './progress.ts';
import { balance, generateRemotely, remoteClient, sites, terminalConsent } from './remote.ts';
import { MIN_FULL_TEXT_TOKENS } from '../llms-txt/index.ts';
import { RENDER_MODES, type RenderMode } from '../crawl/index.ts';

const HELP = `Usage:
  llmstxt generate <url> [options]          generate on this machine (no account needed)
  llmstxt remote generate <url> [options]   generate on a service (LLMSTXT_API_KEY, LLMSTXT_API_URL)
  llmstxt balance                           the account's credits
  llmstxt sites                             the account's sites
  llmstxt lint <url|file>                   check an llms.txt (a site's, or any page of the site,
                                            or a local file): structure, links, key pages; 0-100

Options:
  --out <dir>          where to write llms.txt (and llms-full.txt); default: .
  --full               also write llms-full.txt
  --max-tokens <n>     keep llms-full.txt within n tokens (o200k_base): the most important pages
                       whole, the rest left out; needs --full
  --max-urls <n>       pages to list, 1 to 1000; default 50
  --method <m>         simple (page metadata) or enhanced; default simple
  --include <pattern>  list only paths matching (glob, repeatable)
  --exclude <pattern>  never fetch paths matching (glob, repeatable)
  --yes                remote: start without asking (the cost is printed first; without a
                       terminal to ask on, a job that costs credits needs --yes)
  --render <mode>      render pages in Chromium first: never, auto (pages that look built by
                       scripts) or always; default never. Locally needs Chromium (CHROMIUM_PATH)
  --link-markdown      llms.txt links each page to its markdown copy: the site's own, or (remote)
                       the copy the service hosts
  --explain            also write llms-explain.json: for each listed page, the rules that chose
                       its title, description and section (generate on this machine only)
  --json               print the result as JSON
  --quiet              no progress on stderr
  --version            print the version

Exit codes: 0 done, 2 bad arguments (or a cost not agreed to without a terminal), 3 the site
could not be read or the job failed, 4 the service refused the request, 5 the service could
not be reached, 6 the cost was declined, 1 anything else.`;

const OPTIONS = {
  out: { type: 'string', default: '.' },
  full: { type: 'boolean', default: false },
  'max-tokens': { type: 'string' },
  'max-urls': { type: 'string', default: '50' },
  method: { type: 'string', default: 'simple' },
  include: { type: 'string', multiple: true, default: [] as string[] },
  exclude: { type: 'string', multiple: true, default: [] as string[] },
  explain: { type: 'boolean', default: false },
  render: { type: 'string', default: 'never' },
  'link-markdown': { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  yes: { type: 'boolean', short: 'y', default: false },
  quiet: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'v', default: false },
} satisfies ParseArgsConfig['options'];

export async function runCli(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let json = false;
  try {
    const { values, positionals } = parseCommandLine(argv);
    json = values.json;
    if (values.version) {
      console.log(`llmstxt ${packageVersion()}`);
      return EXIT.ok;
    }
    if (values.help || positionals.length === 0) {
      console.log(HELP);
      return values.help ? EXIT.ok : EXIT.usage;
    }
    const progress = new Progress(process.stderr, values.quiet || json);
    const result = await dispatch(positionals, values, env, progress);
    console.log(json ? JSON.stringify(result, null, 2) : describe(result));
    return EXIT.ok;
  } catch (error) {
    const failure = error instanceof CliError ? error : new CliError(EXIT.internal, error instanceof Error ? error.message : String(error));
    if (json) console.log(JSON.stringify({ error: failure.message, exitCode: failure.exitCode }));
    console.error(`llmstxt: ${failure.message}`);
    return failure.exitCode;
  }
}

function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliError(EXIT.usage, `${(error as Error).message}\n${HELP}`);
  }
}

type Values = ReturnType<typeof parseCommandLine>['values'];

async function dispatch(positionals: string[], values: Values, env: NodeJS.ProcessEnv, progress: Progress): Promise<unknown> {
  const [command, ...rest] = positionals;
  const generation = () => ({
    out: values.out,
    full: values.full,
    maxTokens: maxTokens(values['max-tokens'], values.full),
    maxUrls: maxUrls(values['max-urls']),
    method: method(values.method),
    includePaths: values.include,
    excludePaths: values.exclude,
    render: renderMode(values.render),
    linkMarkdown: values['link-markdown'],
  });
  const url = (args: string[]) => {
    if (args.length !== 1) throw new CliError(EXIT.usage, 'give exactly one URL');
    return args[0];
  };
  if (command === 'generate') {
    const options = { ...generation(), explain: values.explain };
    await prepareOutputFolder(options.out);
    return generateLocally(url(rest), options, progress, abortOnInterrupt(), env);
  }
  if (command === 'remote' && rest[0] === 'generate') {
    if (values.explain) throw new CliError(EXIT.usage, '--explain works with llmstxt generate (on this machine) only');
    const options = generation();
    const client = remoteClient(env);
    await prepareOutputFolder(options.out);
    return generateRemotely(client, url(rest.slice(1)), { ...options, yes: values.yes }, progress, terminalConsent);
  }
  if (command === 'lint') return lint(url(rest));
  if (command === 'balance') return balance(remoteClient(env));
  if (command === 'sites') return sites(remoteClient(env));
  throw new CliError(EXIT.usage, `unknown command "${positionals.join(' ')}"\n${HELP}`);
}

function maxUrls(raw: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 1000) throw new CliError(EXIT.usage, `--max-urls must be a whole number from 1 to 1000, not ${raw}`);
  return value;
}

function maxTokens(raw: string | undefined, full: boolean): number | null {
  if (raw === undefined) return null;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < MIN_FULL_TEXT_TOKENS) throw new CliError(EXIT.usage, `--max-tokens must be a whole number of at least ${MIN_FULL_TEXT_TOKENS}, not ${raw}`);
  if (!full) throw new CliError(EXIT.usage, '--max-tokens limits llms-full.txt: add --full');
  return value;
}


/** package.json beside the bundle's folder in the CLI's package (scripts/pack-cli.ts), two folders up in the repository. */
function packageVersion(): string {
  for (const path of ['../package.json', '../../package.json']) {
    const file = new URL(path, import.meta.url);
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')).version;
  }
  throw new Error('package.json not found');
}

function method(raw: string): 'simple' | 'enhanced' {
  if (raw !== 'simple' && raw !== 'enhanced') throw new CliError(EXIT.usage, `--method must be simple or enhanced, not ${raw}`);
  return raw;
}

function renderMode(raw: string): RenderMode {
  if (!(RENDER_MODES as readonly string[]).includes(raw)) throw new CliError(EXIT.usage, `--render must be never, auto or always, not ${raw}`);
  return raw as RenderMode;
}

function abortOnInterrupt(): AbortSignal {
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  return controller.signal;
}

/** The human-readable result. */
function describe(result: any): string {
  if (result.files) {
    const files = result.files.map((f: any) => `  ${f.path}${f.bytes === null ? '' : ` (${f.bytes.toLocaleString('en')} bytes, ${f.tokens.toLocaleString('en')} tokens)`}`);
    const credits = typeof result.creditsUsed === 'number' ? `${result.creditsUsed} credit${result.creditsUsed === 1 ? '' : 's'} spent, ` : '';
    return [`${result.url}: ${result.pages ?? ''}${result.pages ? ' pages, ' : ''}${credits}wrote`, ...files].join('\n');
  }
  if (typeof result.balance === 'number') return `${result.balance} credits (purchased ${result.totalPurchased}, used ${result.totalUsed})`;
  if (typeof result.score === 'number') return describeReport(result);
  if (result.sites) return result.sites.length === 0 ? 'No sites yet.' : result.sites.map((s: any) => `${s.status.padEnd(10)} ${s.url}  ${s.fileUrl}`).join('\n');
  return JSON.stringify(result, null, 2);
}

if (import.meta.main) process.exitCode = await runCli(process.argv.slice(2));
