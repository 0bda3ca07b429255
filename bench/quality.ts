// The llms.txt quality benchmark: the real service generates (simple, maxUrls 200) for six real
// documentation sites from Debian's packages, each served by nginx on 127.0.0.1, and each file is
// scored on what a reader checks: a valid file; a summary that names the site and is not
// boilerplate; no page twice; 3-25 sections, none over 40% of the links; sections named as the
// site's own top-level parts; the key pages of its table of contents (picked by hand below)
// chosen; secondary pages only in Optional; links described, none ending in ":", few repeated;
// one language.
// Run alone: npm run bench -- quality (BENCH_SERVICE_DIR=<checkout> scores another checkout's service).
// The files are saved under artifacts/quality/.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseLlmsTxt } from '../src/llms-txt/testing/llms-txt-parser.ts';
import { generateThrough, startBenchService } from './generate.ts';
import { ensurePackages, startNginx } from './static-site.ts';

interface DocSite {
  name: string;
  package: string;
  root: string;
  /** the page generation starts from, when not the root */
  start?: string;
  /** words the summary must contain one of */
  siteWords: string[];
  /** the site's own top-level parts, as its home page names them */
  parts: string[];
  /** pages a reader needs first, from the site's main table of contents */
  keyPages: string[];
}

const SITES: DocSite[] = [
  {
    name: 'PostgreSQL 15 manual',
    package: 'postgresql-doc-15',
    root: '/usr/share/doc/postgresql-doc-15/html',
    siteWords: ['PostgreSQL'],
    parts: ['Preface', 'Tutorial', 'The SQL Language', 'Server Administration', 'Client Interfaces', 'Server Programming', 'Reference', 'Internals', 'Appendixes'],
    keyPages: ['tutorial.html', 'sql.html', 'admin.html', 'reference.html', 'sql-select.html', 'sql-createtable.html', 'sql-insert.html', 'app-psql.html', 'datatype.html', 'functions.html', 'indexes.html', 'mvcc.html', 'backup.html', 'runtime-config.html', 'libpq.html', 'plpgsql.html'],
  },
  {
    name: 'Python 3.11 documentation',
    package: 'python3.11-doc',
    root: '/usr/share/doc/python3.11/html',
    siteWords: ['Python'],
    parts: ['Tutorial', 'Library Reference', 'Language Reference', 'Python Setup and Usage', 'Python HOWTOs', 'Installing Python Modules', 'Extending and Embedding', 'Python/C API', 'FAQs'],
    keyPages: ['tutorial/index.html', 'library/index.html', 'reference/index.html', 'using/index.html', 'howto/index.html', 'extending/index.html', 'c-api/index.html', 'faq/index.html', 'library/functions.html', 'library/stdtypes.html', 'library/os.html', 'library/re.html', 'tutorial/introduction.html', 'tutorial/controlflow.html', 'reference/datamodel.html', 'installing/index.html'],
  },
  {
    name: 'Sphinx documentation',
    package: 'sphinx-doc',
    root: '/usr/share/doc/sphinx-doc/html',
    siteWords: ['Sphinx'],
    parts: ['Get started', 'User Guides', 'Community', 'Reference'],
    keyPages: ['usage/installation.html', 'usage/quickstart.html', 'tutorial/index.html', 'usage/index.html', 'usage/configuration.html', 'usage/restructuredtext/index.html', 'usage/extensions/index.html', 'usage/extensions/autodoc.html', 'usage/builders/index.html', 'extdev/index.html', 'development/index.html', 'man/sphinx-build.html', 'faq.html', 'glossary.html'],
  },
  {
    name: 'Git manual pages',
    package: 'git-doc',
    root: '/usr/share/doc/git-doc',
    siteWords: ['Git'],
    parts: ['Main porcelain commands', 'Ancillary Commands', 'Interacting with Others', 'Manipulation commands', 'Interrogation commands', 'Syncing repositories', 'Guides'],
    keyPages: ['git-add.html', 'git-commit.html', 'git-clone.html', 'git-branch.html', 'git-merge.html', 'git-push.html', 'git-pull.html', 'git-log.html', 'git-status.html', 'git-rebase.html', 'git-config.html', 'git-init.html', 'git-checkout.html', 'gittutorial.html', 'giteveryday.html'],
  },
  {
    // A home page that groups labelled rows of links ("Models: Introduction to models | Field types | …") under headings.
    name: 'Django documentation',
    package: 'python-django-doc',
    root: '/usr/share/doc/python-django-doc/html',
    siteWords: ['Django'],
    parts: ['First steps', 'The model layer', 'The view layer', 'The template layer', 'Forms', 'The development process', 'The admin', 'Security', 'Internationalization and localization', 'Common Web application tools', 'Other core functionalities', 'The Django open-source project'],
    keyPages: ['intro/index.html', 'intro/install.html', 'intro/tutorial01.html', 'topics/index.html', 'ref/index.html', 'topics/db/models.html', 'topics/db/queries.html', 'ref/models/fields.html', 'topics/http/urls.html', 'topics/http/views.html', 'topics/templates.html', 'topics/forms/index.html', 'ref/settings.html', 'topics/testing/index.html', 'ref/contrib/admin/index.html', 'topics/auth/index.html', 'howto/deployment/index.html', 'topics/security.html', 'ref/django-admin.html'],
  },
  {
    // Every page in several languages with a language switcher, a home page of grouped contents and no prose.
    name: 'Apache HTTP Server manual',
    package: 'apache2-doc',
    root: '/usr/share/doc/apache2-doc/manual',
    start: '/en/index.html',
    siteWords: ['Apache'],
    parts: ['Release Notes', 'Reference Manual', "Users' Guide", 'How-To / Tutorials', 'Platform Specific Notes', 'Other Topics'],
    keyPages: ['en/install.html', 'en/invoking.html', 'en/configuring.html', 'en/getting-started.html', 'en/mod/quickreference.html', 'en/mod/core.html', 'en/logs.html', 'en/urlmapping.html', 'en/vhosts/index.html', 'en/howto/auth.html', 'en/howto/htaccess.html', 'en/ssl/index.html', 'en/rewrite/index.html', 'en/mod/mod_rewrite.html', 'en/mod/mod_ssl.html', 'en/programs/httpd.html', 'en/caching.html'],
  },
];

const SECONDARY_URL = /\/(?:(?:genindex|bookindex|py-modindex|modindex|search|legalnotice|copyright|license|changes)(?:-[^/]*)?|release-\d[^/]*|whatsnew(?:\/)?[^/]*)\.html$/i;
const BOILERPLATE = /please donate|available languages|all rights reserved|^(?:this page was )?last (?:updated|modified)/i;
/** Where each generated file is saved, to be read as a user would. */
const OUT_DIR = 'artifacts/quality';

export interface QualityScore {
  site: string;
  pages: number;
  checks: Record<string, { value: string; pass: boolean }>;
}

export async function runQualityBench(): Promise<QualityScore[]> {
  ensurePackages(['nginx-light', ...SITES.map((site) => site.package)]);
  const work = mkdtempSync(join(tmpdir(), 'quality-bench-'));
  const service = await startBenchService(work);
  const scores: QualityScore[] = [];
  try {
    for (const site of SITES) {
      const nginx = await startNginx(work, site.root);
      try {
        const origin = `http://127.0.0.1:${nginx.port}`;
        const { llmsTxt, pages } = await generateThrough(service.base, `${origin}${site.start ?? '/'}`, { maxUrls: 200, generationMethod: 'simple' });
        mkdirSync(OUT_DIR, { recursive: true });
        writeFileSync(join(OUT_DIR, `${site.package}.txt`), llmsTxt);
        scores.push(score(site, origin, llmsTxt, pages));
      } finally {
        nginx.stop();
      }
    }
  } finally {
    await service.stop();
    rmSync(work, { recursive: true, force: true });
  }
  printScores(scores);
  return scores;
}

function score(site: DocSite, origin: string, llmsTxt: string, pages: number): QualityScore {
  const checks: QualityScore['checks'] = {};
  const check = (name: string, value: string, pass: boolean) => (checks[name] = { value, pass });
  let doc: ReturnType<typeof parseLlmsTxt>;
  try {
    doc = parseLlmsTxt(llmsTxt);
    check('valid structure', 'yes', true);
  } catch (error) {
    check('valid structure', String(error).slice(0, 60), false);
    return { site: site.name, pages, checks };
  }
  const summary = doc.summary ?? '';
  const namesSite = site.siteWords.some((word) => summary.toLowerCase().includes(word.toLowerCase()));
  check('summary names the site', summary ? `${namesSite ? 'yes' : 'no'}: "${summary.slice(0, 50)}…"` : 'missing', Boolean(summary) && namesSite && !BOILERPLATE.test(summary));

  const links = doc.sections.flatMap((section) => section.links.map((link) => ({ ...link, section: section.name })));
  const key = (url: string) => url.replace(/#.*$/, '').replace(/\/index\.html$/, '/');
  const duplicates = links.length - new Set(links.map((link) => key(link.url))).size;
  check('duplicate pages', String(duplicates), duplicates === 0);

  const primary = doc.sections.filter((section) => section.name !== 'Optional');
  const primaryLinks = primary.reduce((sum, section) => sum + section.links.length, 0);
  const largest = Math.max(0, ...primary.map((section) => section.links.length)) / Math.max(1, primaryLinks);
  check('sections (3-25)', String(primary.length), primary.length >= 3 && primary.length <= 25);
  check('largest section ≤ 40%', `${Math.round(largest * 100)}%`, largest <= 0.4);

  const names = new Set(primary.map((section) => section.name.toLowerCase()));
  const matched = site.parts.filter((part) => names.has(part.toLowerCase())).length;
  check("sections match the site's parts", `${matched}/${site.parts.length}`, matched / site.parts.length >= 0.8);

  const listed = new Set(links.map((link) => key(link.url)));
  const chosen = site.keyPages.filter((path) => listed.has(key(`${origin}/${path}`))).length;
  check('key pages chosen (≥ 80%)', `${chosen}/${site.keyPages.length}`, chosen / site.keyPages.length >= 0.8);

  const misplaced = links.filter((link) => link.section !== 'Optional' && SECONDARY_URL.test(new URL(link.url).pathname)).length;
  check('secondary pages outside Optional', String(misplaced), misplaced === 0);

  const described = links.filter((link) => link.notes && link.notes.trim()).length / Math.max(1, links.length);
  check('links described (≥ 95%)', `${(described * 100).toFixed(1)}%`, described >= 0.95);
  const colon = links.filter((link) => link.notes?.trim().endsWith(':')).length;
  check('descriptions ending in ":"', String(colon), colon === 0);
  const boilerplate = links.filter((link) => BOILERPLATE.test(link.notes ?? '')).length;
  check('boilerplate descriptions', String(boilerplate), boilerplate === 0);
  const counts = new Map<string, number>();
  for (const link of links) if (link.notes) counts.set(link.notes, (counts.get(link.notes) ?? 0) + 1);
  const repeated = links.filter((link) => link.notes && counts.get(link.notes)! > 1).length / Math.max(1, links.length);
  check('repeated descriptions (≤ 2%)', `${(repeated * 100).toFixed(1)}%`, repeated <= 0.02);

  const languages = new Set(links.map((link) => /^\/([a-z]{2})(?:-[a-z]+)?\//.exec(new URL(link.url).pathname)?.[1] ?? '-'));
  check('one language', String(languages.size), languages.size === 1);
  return { site: site.name, pages, checks };
}

function printScores(scores: QualityScore[]): void {
  for (const entry of scores) {
    const passed = Object.values(entry.checks).filter((c) => c.pass).length;
    console.log(`\n${entry.site}: ${entry.pages} pages listed, ${passed}/${Object.keys(entry.checks).length} checks pass`);
    for (const [name, c] of Object.entries(entry.checks)) console.log(`  ${c.pass ? 'pass' : 'FAIL'}  ${name.padEnd(34)} ${c.value}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  runQualityBench().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
