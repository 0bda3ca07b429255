import { useEffect, useState } from 'preact/hooks';
import { answer, api, formatDate, type Answer, type paths } from './api.ts';
import { GeneratePanel } from './generate-form.tsx';
import { navigate } from './router.ts';
import { ErrorMessage, Notice, PageHeading, useLoad, FilterSelect } from './ui.tsx';
import { Table } from './tables.tsx';

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

/** The history's pager, by offset: "11–20 of 42" between Previous and Next. */
function HistoryPager({ offset, total, hasMore, loading, onOffset }: { offset: number; total: number; hasMore: boolean; loading: boolean; onOffset: (offset: number) => void }) {
  return (
    <nav class="pager" aria-label="Credit history pages">
      <button type="button" class="secondary" disabled={offset === 0 || loading} onClick={() => onOffset(Math.max(0, offset - PAGE_SIZE))}>
        Previous
      </button>
      <span>
        {total === 0 ? 0 : offset + 1}–{Math.min(offset + PAGE_SIZE, total)} of {total}
      </span>
      <button type="button" class="secondary" disabled={!hasMore || loading} onClick={() => onOffset(offset + PAGE_SIZE)}>
        Next
      </button>
    </nav>
  );
}

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
            <Table
              rows={data.transactions}
              rowKey={(t) => t.id}
              columns={[
                { header: 'Date', cell: (t) => formatDate(t.createdAt) },
                { header: 'Type', cell: (t) => t.type },
                { header: 'Description', cell: (t) => (t.siteId ? <a href={`/sites/${t.siteId}`}>{t.description}</a> : t.description) },
                { header: 'Credits', class: 'num', cell: (t) => (t.amount > 0 ? `+${t.amount}` : t.amount) },
              ]}
            />
          )}
          <HistoryPager offset={offset} total={data.total} hasMore={data.hasMore} loading={loading} onOffset={setOffset} />
        </>
      ) : loading ? (
        <p>Loading…</p>
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
      <GeneratePanel balance={data?.balance ?? null} onChange={bump} />
      <History version={version} />
    </>
  );
}

export { navigate };
