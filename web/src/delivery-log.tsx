/**
 * An endpoint's delivery log: each delivery (newest first) with its status and every attempt
 * (when, the receiver's status code or the error, how long it took). Followed while a delivery
 * is pending, so a test event shows its attempt as it happens.
 */
import { useState } from 'preact/hooks';
import { answer, api, formatDate, type Answer } from './api.ts';
import { Pager, Status, useLoad, usePolling, ErrorMessage } from './ui.tsx';

type Delivery = Answer<'/api/v1/webhooks/endpoints/{id}/deliveries', 'get'>['deliveries'][number];
type Attempt = Delivery['attempts'][number];

const PAGE_SIZE = 10;

function attemptText(attempt: Attempt): string {
  const outcome = attempt.statusCode !== null ? `HTTP ${attempt.statusCode}` : (attempt.error ?? 'no answer');
  return `${formatDate(attempt.at)}: ${outcome} in ${attempt.durationMs} ms${attempt.statusCode !== null && attempt.error ? ` (${attempt.error})` : ''}`;
}

function DeliveryRow({ delivery }: { delivery: Delivery }) {
  return (
    <li class="delivery" data-testid="delivery">
      <p>
        <strong>{delivery.event}</strong> <Status value={delivery.status} /> <span class="muted">{formatDate(delivery.createdAt)}</span>
        {delivery.nextAttemptAt ? <span class="muted"> · next attempt {formatDate(delivery.nextAttemptAt)}</span> : null}
      </p>
      {delivery.attempts.length ? (
        <ol class="attempts">
          {delivery.attempts.map((attempt, i) => (
            <li key={i}>{attemptText(attempt)}</li>
          ))}
        </ol>
      ) : (
        <p class="muted small">{delivery.status === 'notice' ? JSON.stringify((delivery.payload as { data?: unknown })?.data ?? '') : 'Not sent yet.'}</p>
      )}
    </li>
  );
}

export function DeliveryLog({ endpointId, version }: { endpointId: string; version: number }) {
  const [page, setPage] = useState(1);
  const log = useLoad(
    () => answer(api.GET('/api/v1/webhooks/endpoints/{id}/deliveries', { params: { path: { id: endpointId }, query: { page, limit: PAGE_SIZE } } })),
    [endpointId, page, version],
  );
  const pending = log.data?.deliveries.some((d) => d.status === 'pending' && d.attempts.length === 0) ?? false;
  usePolling(pending, log.reload, log.data, 1000);
  return (
    <div aria-label="Delivery log" role="region">
      <ErrorMessage error={log.error} />
      {log.data ? (
        log.data.total === 0 ? (
          <p class="muted">No deliveries yet.</p>
        ) : (
          <>
            <ul class="plain">
              {log.data.deliveries.map((d) => (
                <DeliveryRow key={d.id} delivery={d} />
              ))}
            </ul>
            {log.data.totalPages > 1 ? <Pager page={log.data.page} totalPages={log.data.totalPages} onPage={setPage} label="Delivery log pages" disabled={log.loading} /> : null}
          </>
        )
      ) : log.loading ? (
        <p>Loading…</p>
      ) : null}
    </div>
  );
}
