import { useState } from 'preact/hooks';
import { answer, api, ApiError, formatDate, type Answer, type paths } from './api.ts';
import { navigate } from './router.ts';
import { discoveryOptionSchema, rangeHint, wholeNumber, type DiscoveryOptionSchema } from './service-options.ts';
import { ErrorMessage, Field, Notice, PageHeading, Status, useLoad, usePolling, NotFound, FilterSelect } from './ui.tsx';
import { Table, UrlTable, lastModifiedColumn } from './tables.tsx';

type JobStatus = NonNullable<NonNullable<paths['/api/v1/discovery']['get']['parameters']['query']>['status']>;
type DiscoveryType = DiscoveryOptionSchema['discoveryType']['default'];

/** Sitemaps mostly give a day (stored as midnight UTC): show it as that day, not shifted into local time. */
const active = (status: string) => status === 'pending' || status === 'processing';
const TYPE_LABELS: Record<string, string> = { full: 'Sitemaps and crawling', sitemap: 'Sitemaps only', crawl: 'Crawling only' };

/** `Validation error: url must be …` → `URL must be …`, for display next to the field. */
const fieldMessage = (message: string) => {
  const text = message.replace(/^Validation error: (?:body\/)?\/?/, '').replace(/^url\b/, 'URL');
  return text.charAt(0).toUpperCase() + text.slice(1);
};

function StartDiscovery({ onStarted }: { onStarted: () => void }) {
  const schema = useLoad(discoveryOptionSchema);
  return (
    <section class="card" aria-labelledby="discover-title">
      <h2 id="discover-title">Discover a site's URLs</h2>
      <p class="muted">Find the pages of a website from its sitemaps, by crawling its links, or both. Discovery is free.</p>
      <ErrorMessage error={schema.error} />
      {schema.data ? <DiscoveryForm schema={schema.data} onStarted={onStarted} /> : schema.loading ? <p>Loading…</p> : null}
    </section>
  );
}

/** How the discovery finds pages: sitemaps, crawling or both. */
function TypeField({ value, onChange, error }: { value: DiscoveryType; onChange: (type: DiscoveryType) => void; error: string | undefined }) {
  return (
    <div class="field">
      <label for="disc-type">Discovery type</label>
      <select
        id="disc-type"
        value={value}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? 'disc-type-error' : undefined}
        onChange={(e) => onChange((e.target as HTMLSelectElement).value as DiscoveryType)}
      >
        <option value="full">{TYPE_LABELS.full}</option>
        <option value="sitemap">{TYPE_LABELS.sitemap}</option>
        <option value="crawl">{TYPE_LABELS.crawl}</option>
      </select>
      {error ? (
        <p class="field-error" id="disc-type-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Starts from the service's own defaults and limits (service-options.ts). */
function DiscoveryForm({ schema, onStarted }: { schema: DiscoveryOptionSchema; onStarted: () => void }) {
  const [url, setUrl] = useState('');
  const [maxUrls, setMaxUrls] = useState(String(schema.maxUrls.default));
  const [type, setType] = useState<DiscoveryType>(schema.discoveryType.default);
  const [errors, setErrors] = useState<{ url?: string; maxUrls?: string; discoveryType?: string }>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    const found: typeof errors = {};
    if (!url.trim()) found.url = "Enter the website's address, for example https://docs.example.com.";
    const max = wholeNumber(maxUrls, schema.maxUrls);
    if (typeof max === 'string') found.maxUrls = max;
    setErrors(found);
    if (Object.keys(found).length) return document.getElementById(found.url ? 'disc-url' : 'disc-max')?.focus();
    setBusy(true);
    try {
      // The address itself is checked by the API, whose message lands next to the field.
      const started = await answer(api.POST('/api/v1/discovery', { body: { url: url.trim(), maxUrls: max as number, discoveryType: type } }));
      onStarted();
      navigate(`/discovery/${started.id}`);
    } catch (err) {
      const field = err instanceof ApiError ? err.field : undefined;
      if (err instanceof ApiError && err.status === 400 && (field === 'url' || field === 'maxUrls' || field === 'discoveryType')) {
        setErrors({ [field]: fieldMessage(err.message) });
        document.getElementById(field === 'url' ? 'disc-url' : field === 'maxUrls' ? 'disc-max' : 'disc-type')?.focus();
      } else setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Field id="disc-url" label="Website URL" type="url" value={url} onInput={setUrl} error={errors.url} required hint="For example https://docs.example.com" />
      <div class="grid2">
        <Field id="disc-max" label="Maximum URLs" type="number" value={maxUrls} onInput={setMaxUrls} error={errors.maxUrls} hint={rangeHint(schema.maxUrls)} inputMode="numeric" />
        <TypeField value={type} onChange={setType} error={errors.discoveryType} />
      </div>
      <ErrorMessage error={error} />
      <button type="submit" disabled={busy}>
        {busy ? 'Starting…' : 'Start discovery'}
      </button>
    </form>
  );
}

export function DiscoveryPage() {
  const [status, setStatus] = useState<JobStatus | ''>('');
  const [version, setVersion] = useState(0);
  const jobs = useLoad(() => answer(api.GET('/api/v1/discovery', { params: { query: { limit: 100, ...(status ? { status } : {}) } } })), [status, version]);
  const running = !!jobs.data?.jobs.some((j) => active(j.status));
  usePolling(running && !jobs.loading, jobs.reload, jobs.data);

  return (
    <>
      <PageHeading>Discovery</PageHeading>
      <StartDiscovery onStarted={() => setVersion((v) => v + 1)} />
      <section class="card" aria-labelledby="jobs-title">
        <h2 id="jobs-title">Your discoveries</h2>
        <FilterSelect
          id="disc-status"
          label="Status"
          value={status}
          choices={[['pending', 'Pending'], ['processing', 'Processing'], ['completed', 'Completed'], ['failed', 'Failed']]}
          onChange={setStatus}
        />
        <ErrorMessage error={jobs.error} />
        {jobs.data ? (
          jobs.data.jobs.length === 0 ? (
            <p>{status ? `No ${status} discoveries.` : 'No discoveries yet.'}</p>
          ) : (
            <>
              <p class="muted" aria-live="polite">
                {jobs.data.total} {jobs.data.total === 1 ? 'discovery' : 'discoveries'}
                {running ? ' · updating while jobs run' : ''}
              </p>
              <Table
                rows={jobs.data.jobs}
                rowKey={(j) => j.id}
                columns={[
                  { header: 'Site', cell: (j) => <a href={`/discovery/${j.id}`}>{j.url}</a> },
                  { header: 'Type', cell: (j) => j.type },
                  { header: 'Status', cell: (j) => <Status value={j.status} /> },
                  { header: 'URLs found', class: 'num', testId: 'urls-found', cell: (j) => j.urlsFound },
                  { header: 'Started', cell: (j) => formatDate(j.createdAt) },
                ]}
              />
            </>
          )
        ) : jobs.loading ? (
          <p>Loading…</p>
        ) : null}
      </section>
    </>
  );
}

type Discovery = Answer<'/api/v1/discovery/{discoveryId}', 'get'>;

/** The job's card: status and count (updating while it runs), type and times, its failure. */
function JobCard({ job: d }: { job: Discovery }) {
  return (
    <section class="card" aria-labelledby="disc-job-title">
      <h2 id="disc-job-title">Job</h2>
      <p aria-live="polite">
        Status: <Status value={d.status} /> · <span data-testid="disc-urls-found">{d.urlsFound}</span> URLs found
      </p>
      <p class="muted">
        {TYPE_LABELS[d.type] ?? d.type} · started {formatDate(d.createdAt)}
        {d.completedAt ? ` · finished ${formatDate(d.completedAt)}` : ''}
      </p>
      {active(d.status) ? <Notice>Discovering… this page updates by itself.</Notice> : null}
      {d.status === 'failed' ? <p class="error">{d.error ?? 'The discovery failed.'}</p> : null}
    </section>
  );
}

/** The URLs the job found, a page at a time; loaded again as the job reports more. */
function DiscoveredUrls({ id, status, urlsFound }: { id: string; status: string | undefined; urlsFound: number | undefined }) {
  const [page, setPage] = useState(1);
  const urls = useLoad(
    () => answer(api.GET('/api/v1/discovery/{discoveryId}/urls', { params: { path: { discoveryId: id }, query: { page, limit: 25 } } })),
    [id, page, status, urlsFound],
  );
  return (
    <section class="card" aria-labelledby="disc-urls-title">
      <h2 id="disc-urls-title">Discovered URLs</h2>
      <UrlTable
        load={urls}
        rowKey={(u) => u.url}
        label="Discovered URL pages"
        onPage={setPage}
        columns={[
          {
            header: 'URL',
            class: 'break',
            cell: (u) => (
              <a href={u.url} target="_blank" rel="noopener">
                {u.url}
              </a>
            ),
          },
          { header: 'Source', cell: (u) => u.source },
          lastModifiedColumn(),
        ]}
      />
    </section>
  );
}

export function DiscoveryJobPage({ id }: { id: string }) {
  const job = useLoad(() => answer(api.GET('/api/v1/discovery/{discoveryId}', { params: { path: { discoveryId: id } } })), [id]);
  const status = job.data?.status;
  usePolling(!!status && active(status) && !job.loading, job.reload, job.data);

  if (job.error instanceof ApiError && (job.error.status === 404 || job.error.status === 403)) {
    return <NotFound title="Discovery not found" message={job.error.message} back="/discovery" backLabel="Back to your discoveries" />;
  }
  const d = job.data;
  return (
    <>
      <PageHeading>{d ? `Discovery of ${d.url}` : 'Discovery'}</PageHeading>
      <p>
        <a href="/discovery">← All discoveries</a>
      </p>
      <ErrorMessage error={job.error} />
      {d ? <JobCard job={d} /> : job.loading ? <p>Loading…</p> : null}
      <DiscoveredUrls id={id} status={status} urlsFound={d?.urlsFound} />
    </>
  );
}
