import { useEffect, useState } from 'preact/hooks';
import { answer, api, ApiError, formatDate, type Answer, type paths } from './api.ts';
import { navigate } from './router.ts';
import { ErrorMessage, Field, Notice, PageHeading, useLoad, usePolling, FilterSelect } from './ui.tsx';

type Balance = Answer<'/api/v1/credits/balance', 'get'>;
type TransactionType = NonNullable<NonNullable<paths['/api/v1/credits/history']['get']['parameters']['query']>['type']>;

function CheckoutReturn({ query, onCredited }: { query: URLSearchParams; onCredited: () => void }) {
  const outcome = query.get('checkout');
  const sessionId = query.get('session_id');
  const [state, setState] = useState<{ kind: 'info' | 'success' | 'warning'; text: string } | null>(null);
  useEffect(() => {
    setState(null);
    if (outcome === 'canceled') setState({ kind: 'info', text: 'Checkout canceled. Nothing was charged.' });
    else if (outcome === 'success' && sessionId) {
      setState({ kind: 'info', text: 'Confirming your payment…' });
      answer(api.GET('/api/v1/credits/verify-session/{sessionId}', { params: { path: { sessionId } } })).then(
        (result) => {
          setState({ kind: 'success', text: `Payment received: ${result.credits} credits were added to your balance.` });
          onCredited();
        },
        (err) => setState({ kind: 'warning', text: `We could not confirm this payment yet (${err instanceof Error ? err.message : err}). If you were charged, your credits will appear shortly.` }),
      );
    } else if (query.get('subscription') === 'success') setState({ kind: 'success', text: 'Thank you! Your subscription is active.' });
  }, [outcome, sessionId]);
  if (!state) return null;
  return <Notice kind={state.kind}>{state.text}</Notice>;
}

const PAGE_SIZE = 10;

function History({ version }: { version: number }) {
  const [type, setType] = useState<TransactionType | ''>('');
  const [offset, setOffset] = useState(0);
  const { data, error, loading } = useLoad(
    () => answer(api.GET('/api/v1/credits/history', { params: { query: { limit: PAGE_SIZE, offset, ...(type ? { type } : {}) } } })),
    [type, offset, version],
  );
  return (
    <section class="card" aria-labelledby="history-title">
      <h2 id="history-title">Credit history</h2>
      <FilterSelect
        id="history-type"
        label="Type"
        value={type}
        choices={[['purchase', 'Purchases'], ['usage', 'Usage'], ['refund', 'Refunds']]}
        onChange={(value) => {
          setType(value);
          setOffset(0);
        }}
      />
      <ErrorMessage error={error} />
      {data ? (
        <>
          {data.transactions.length === 0 ? (
            <p>No transactions.</p>
          ) : (
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Date</th>
                    <th scope="col">Type</th>
                    <th scope="col">Description</th>
                    <th scope="col" class="num">
                      Credits
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.transactions.map((t) => (
                    <tr key={t.id}>
                      <td>{formatDate(t.createdAt)}</td>
                      <td>{t.type}</td>
                      <td>{t.siteId ? <a href={`/sites/${t.siteId}`}>{t.description}</a> : t.description}</td>
                      <td class="num">{t.amount > 0 ? `+${t.amount}` : t.amount}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <nav class="pager" aria-label="Credit history pages">
            <button type="button" class="secondary" disabled={offset === 0 || loading} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
              Previous
            </button>
            <span>
              {data.total === 0 ? 0 : offset + 1}–{Math.min(offset + PAGE_SIZE, data.total)} of {data.total}
            </span>
            <button type="button" class="secondary" disabled={!data.hasMore || loading} onClick={() => setOffset(offset + PAGE_SIZE)}>
              Next
            </button>
          </nav>
        </>
      ) : loading ? (
        <p>Loading…</p>
      ) : null}
    </section>
  );
}

interface Job {
  id: string;
  siteId: string;
  status: string;
  progress: number;
  fileUrl: string | null;
  fullTextUrl: string | null;
  error: string | null;
}

function Generate({ onDone }: { onDone: () => void }) {
  const [url, setUrl] = useState('');
  const [maxUrls, setMaxUrls] = useState('50');
  const [method, setMethod] = useState<'simple' | 'enhanced'>('simple');
  const [fullText, setFullText] = useState(false);
  const [errors, setErrors] = useState<{ url?: string; maxUrls?: string }>({});
  const [error, setError] = useState<unknown>(null);
  const [job, setJob] = useState<Job | null>(null);
  const [busy, setBusy] = useState(false);
  const [polls, setPolls] = useState(0);

  const refreshJob = async () => {
    try {
      const next = await answer(api.GET('/api/v1/generate/{jobId}', { params: { path: { jobId: job!.id } } }));
      setJob(next);
      if (next.status === 'completed' || next.status === 'failed') {
        setBusy(false);
        onDone();
      }
    } catch (err) {
      setError(err);
    } finally {
      setPolls((n) => n + 1);
    }
  };
  usePolling(busy && job !== null, refreshJob, polls, 500);

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    const found: typeof errors = {};
    try {
      const parsed = new URL(url.trim());
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error();
    } catch {
      found.url = 'Enter a full http:// or https:// address.';
    }
    const max = Number(maxUrls);
    if (!Number.isInteger(max) || max < 1 || max > 1000) found.maxUrls = 'Enter a whole number from 1 to 1000.';
    setErrors(found);
    if (Object.keys(found).length) return document.getElementById(found.url ? 'gen-url' : 'gen-max')?.focus();
    setBusy(true);
    setJob(null);
    try {
      const started = await answer(api.POST('/api/v1/generate', {
        body: { url: url.trim(), options: { maxUrls: max, showFullText: fullText, generationMethod: method, includeModificationDate: false, cacheAge: 3600000 } },
      }));
      const first: Job = { id: started.jobId, siteId: started.siteId, status: started.status, progress: started.progress, fileUrl: started.fileUrl, fullTextUrl: started.fullTextUrl, error: null };
      setJob(first);
      onDone();
      if (started.status === 'completed' || started.status === 'failed') setBusy(false);
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.status === 402) setError(new Error(`${err.message}`));
      else if (err instanceof ApiError && err.field === 'url') setErrors({ url: err.message.replace(/^Validation error: /, '') });
      else setError(err);
    }
  };

  return (
    <section class="card" aria-labelledby="generate-title">
      <h2 id="generate-title">Generate llms.txt</h2>
      <form onSubmit={submit} noValidate>
        <Field id="gen-url" label="Website URL" type="url" value={url} onInput={setUrl} error={errors.url} required hint="For example https://docs.example.com" />
        <div class="grid2">
          <Field id="gen-max" label="Maximum pages" type="number" value={maxUrls} onInput={setMaxUrls} error={errors.maxUrls} hint="1 to 1000" inputMode="numeric" />
          <div class="field">
            <label for="gen-method">Method</label>
            <select id="gen-method" value={method} onChange={(e) => setMethod((e.target as HTMLSelectElement).value as 'simple' | 'enhanced')}>
              <option value="simple">Simple</option>
              <option value="enhanced">Enhanced (AI descriptions, 2× credits)</option>
            </select>
          </div>
        </div>
        <div class="field checkbox">
          <input id="gen-full" type="checkbox" checked={fullText} onChange={(e) => setFullText((e.target as HTMLInputElement).checked)} />
          <label for="gen-full">Also build llms-full.txt (full text)</label>
        </div>
        <ErrorMessage error={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Generating…' : 'Generate'}
        </button>
      </form>
      {job ? (
        <div class="job" aria-live="polite">
          <label for="gen-progress">Progress</label>
          <progress id="gen-progress" max={100} value={job.progress} />
          <p data-testid="job-status">
            {job.status === 'completed' ? 'Done' : job.status === 'failed' ? 'Failed' : 'Working'}: {job.progress}%
          </p>
          {job.status === 'failed' ? <p class="error">{job.error ?? 'The generation failed.'}</p> : null}
          {job.status === 'completed' && job.fileUrl ? (
            <p class="row">
              <a href={job.fileUrl} target="_blank" rel="noopener">
                Open llms.txt
              </a>
              {job.fullTextUrl ? (
                <a href={job.fullTextUrl} target="_blank" rel="noopener">
                  Open llms-full.txt
                </a>
              ) : null}
              <a href={`/sites/${job.siteId}`}>View site</a>
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

export function DashboardPage({ query, me, onAccountChanged }: { query: URLSearchParams; me: { firstName: string; plan: string } | null; onAccountChanged: () => void }) {
  const [version, setVersion] = useState(0);
  const bump = () => {
    setVersion((v) => v + 1);
    onAccountChanged();
  };
  const { data, error, loading } = useLoad(() => answer(api.GET('/api/v1/credits/balance')), [version]);
  return (
    <>
      <PageHeading>Dashboard</PageHeading>
      <CheckoutReturn query={query} onCredited={bump} />
      <section class="card" aria-labelledby="balance-title">
        <h2 id="balance-title">Credits</h2>
        <ErrorMessage error={error} />
        {data ? (
          <>
            <p class="balance">
              <span data-testid="balance">{data.balance}</span> credits available
            </p>
            <p class="muted">
              {data.totalPurchased} purchased · {data.totalUsed} used · plan: <strong>{me?.plan ?? '…'}</strong>
            </p>
            <p class="row">
              <a class="button" href="/pricing">
                Buy credits
              </a>
            </p>
            <h3>Recent transactions</h3>
            {data.recentTransactions.length === 0 ? (
              <p>No transactions yet.</p>
            ) : (
              <ul class="plain">
                {data.recentTransactions.map((t) => (
                  <li key={t.id}>
                    <span class={t.amount > 0 ? 'plus' : 'minus'}>{t.amount > 0 ? `+${t.amount}` : t.amount}</span> {t.description} <span class="muted">({formatDate(t.createdAt)})</span>
                  </li>
                ))}
              </ul>
            )}
          </>
        ) : loading ? (
          <p>Loading…</p>
        ) : null}
      </section>
      <Generate onDone={bump} />
      <History version={version} />
    </>
  );
}

export { navigate };
