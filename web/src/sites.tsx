import { useState } from 'preact/hooks';
import { answer, api, ApiError, formatDate, type Answer, type paths } from './api.ts';
import { LlmsPreview } from './llms-outline.tsx';
import { McpCard } from './mcp-card.tsx';
import { ScheduleCard } from './schedule-card.tsx';
import { SiteActions } from './site-actions.tsx';
import { CopyButton, ErrorMessage, Notice, PageHeading, Pager, Status, useAction, useLoad, NotFound, FilterSelect } from './ui.tsx';
import { Table, UrlTable, lastModifiedColumn } from './tables.tsx';

type Site = Answer<'/api/v1/sites/{siteId}', 'get'>;
type FileSize = NonNullable<NonNullable<Site['files']>['llmsTxt']>;
type UrlStatus = NonNullable<NonNullable<paths['/api/v1/sites/{siteId}/urls']['get']['parameters']['query']>['status']>;

/** "12.4 kB · 3,210 tokens" */
function FileSizeNote({ size, encoding }: { size: FileSize | null | undefined; encoding: string | undefined }) {
  if (!size) return null;
  const kilobytes = size.bytes / 1000;
  const bytes = kilobytes < 1 ? `${size.bytes} bytes` : `${kilobytes.toLocaleString('en', { maximumFractionDigits: 1 })} kB`;
  return <span class="muted" title={`tokens counted with ${encoding}`}> {bytes} · {size.tokens.toLocaleString('en')} tokens </span>;
}

/** "simple, up to 20 pages, only /docs/, not /blog/, llms-full.txt within 2,000 tokens" */
function optionsSummary(o: NonNullable<Site['lastGenerationOptions']>): string {
  const parts = [`${o.generationMethod}, up to ${o.maxUrls} pages`];
  if (o.includePaths.length) parts.push(`only ${o.includePaths.join(' ')}`);
  if (o.excludePaths.length) parts.push(`not ${o.excludePaths.join(' ')}`);
  if (o.maxTokens !== null) parts.push(`llms-full.txt within ${o.maxTokens.toLocaleString('en')} tokens`);
  return parts.join(', ');
}

/** The site has hosted files: those of its last completed generation, served while another runs or after one failed. */
const hasFiles = (s: Site) => s.status === 'completed' || s.files?.llmsTxt != null;

export function SitesPage({ query }: { query: URLSearchParams }) {
  const [page, setPage] = useState(1);
  const { data, error, loading } = useLoad(() => answer(api.GET('/api/v1/sites', { params: { query: { page, limit: 20 } } })), [page]);
  return (
    <>
      <PageHeading>Sites</PageHeading>
      {query.get('siteDeleted') ? <Notice kind="success">The site was deleted.</Notice> : null}
      <ErrorMessage error={error} />
      {data ? (
        data.sites.length === 0 ? (
          <p>
            No sites yet. <a href="/dashboard">Generate your first llms.txt</a>.
          </p>
        ) : (
          <>
            <Table
              rows={data.sites}
              rowKey={(s) => s.id}
              columns={[
                { header: 'Site', cell: (s) => <a href={`/sites/${s.id}`}>{s.url}</a> },
                { header: 'Status', cell: (s) => <Status value={s.status} /> },
                { header: 'Updated', cell: (s) => formatDate(s.updatedAt) },
              ]}
            />
            <Pager page={data.page} totalPages={data.totalPages} onPage={setPage} label="Sites pages" disabled={loading} />
          </>
        )
      ) : loading ? (
        <p>Loading…</p>
      ) : null}
    </>
  );
}

async function fileText(url: string): Promise<string> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`Could not load the file (${response.status})`);
  return response.text();
}

function MarkdownExport({ siteId, plan }: { siteId: string; plan: string }) {
  const { busy, error, act } = useAction();
  if (plan === 'free') {
    return (
      <p class="muted">
        Markdown export is available on paid plans. <a href="/pricing">See plans</a>
      </p>
    );
  }
  const run = () =>
    act(async () => {
      const blob = await answer(
        api.GET('/api/v1/sites/{siteId}/markdown/export', { params: { path: { siteId }, query: { format: 'combined' } }, parseAs: 'blob' }),
      );
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = `site-${siteId}.md`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    });
  return (
    <>
      <button type="button" class="secondary" onClick={run} disabled={busy}>
        {busy ? 'Exporting…' : 'Export markdown'}
      </button>
      <ErrorMessage error={error} />
    </>
  );
}

/** A hosted file: its link, size, and buttons to copy or download it. */
function FileLink({ url, name, size, encoding }: { url: string; name: string; size: FileSize | null | undefined; encoding: string | undefined }) {
  return (
    <li>
      <a href={url} target="_blank" rel="noopener">
        {name}
      </a>
      <FileSizeNote size={size} encoding={encoding} />{' '}
      <CopyButton text={() => fileText(url)} label={`Copy ${name}`} />{' '}
      <a class="button secondary" href={url} download={name}>
        Download {name}
      </a>
    </li>
  );
}

/** The site's files card: its status, its hosted files (or why there are none yet), its last failure, the markdown export. */
function FilesCard({ site: s, plan }: { site: Site; plan: string }) {
  return (
    <section class="card" aria-labelledby="files-title">
      <h2 id="files-title">Files</h2>
      <p>
        Status: <Status value={s.status} /> · updated {formatDate(s.updatedAt)}
        {s.lastGenerationOptions ? ` · ${optionsSummary(s.lastGenerationOptions)}` : ''}
      </p>
      {hasFiles(s) ? (
        <ul class="plain files">
          <FileLink url={s.fileUrl} name="llms.txt" size={s.files?.llmsTxt} encoding={s.files?.tokenEncoding} />
          {s.fullTextUrl ? <FileLink url={s.fullTextUrl} name="llms-full.txt" size={s.files?.llmsFullTxt} encoding={s.files?.tokenEncoding} /> : null}
        </ul>
      ) : s.status === 'failed' ? null : (
        <Notice>The files appear here once the generation completes.</Notice>
      )}
      {s.lastFailure ? (
        <Notice kind="warning">
          <span data-testid="last-failure">
            The last generation failed {formatDate(s.lastFailure.at)}: {s.lastFailure.message}
          </span>
        </Notice>
      ) : null}
      <MarkdownExport siteId={s.id} plan={plan} />
    </section>
  );
}

/** The site's mapped URLs, a page at a time, filtered by status. */
function MappedUrls({ siteId }: { siteId: string }) {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<UrlStatus | ''>('');
  const urls = useLoad(
    () => answer(api.GET('/api/v1/sites/{siteId}/urls', { params: { path: { siteId }, query: { page, limit: 25, ...(status ? { status } : {}) } } })),
    [siteId, page, status],
  );
  return (
    <section class="card" aria-labelledby="urls-title">
      <h2 id="urls-title">Mapped URLs</h2>
      <FilterSelect
        id="url-status"
        label="Status"
        value={status}
        choices={[['pending', 'Pending'], ['scraped', 'Scraped'], ['failed', 'Failed']]}
        onChange={(value) => {
          setStatus(value);
          setPage(1);
        }}
      />
      <UrlTable
        load={urls}
        rowKey={(u) => u.id}
        label="Mapped URL pages"
        onPage={setPage}
        columns={[
          {
            header: 'Page',
            cell: (u) => (
              <>
                <a href={u.url} target="_blank" rel="noopener">
                  {u.title || u.url}
                </a>
                {u.description ? <div class="muted small">{u.description}</div> : null}
              </>
            ),
          },
          { header: 'Status', cell: (u) => <Status value={u.status} /> },
          lastModifiedColumn(),
        ]}
      />
    </section>
  );
}

export function SitePage({ id, plan }: { id: string; plan: string }) {
  const site = useLoad(() => answer(api.GET('/api/v1/sites/{siteId}', { params: { path: { siteId: id } } })), [id]);
  if (site.error instanceof ApiError && (site.error.status === 404 || site.error.status === 403)) {
    return <NotFound title="Site not found" message={site.error.message} back="/sites" backLabel="Back to your sites" />;
  }
  const s = site.data;
  return (
    <>
      <PageHeading>{s ? s.url : 'Site'}</PageHeading>
      <ErrorMessage error={site.error} />
      {s ? <FilesCard site={s} plan={plan} /> : site.loading ? <p>Loading…</p> : null}
      {s && hasFiles(s) ? <LlmsPreview fileUrl={s.fileUrl} version={s.updatedAt} /> : null}
      {s ? <SiteActions site={s} onChange={site.reload} /> : null}
      {s ? <ScheduleCard site={s} onChange={site.reload} /> : null}
      {s && hasFiles(s) ? <McpCard siteId={s.id} hasFullText={Boolean(s.fullTextUrl)} /> : null}
      <MappedUrls siteId={id} />
    </>
  );
}
