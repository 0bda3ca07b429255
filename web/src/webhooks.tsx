/**
 * The webhooks page: register an endpoint for job events (its signing secret shown once), send
 * it a test event, read its delivery log, enable it again once disabled, delete it.
 */
import { useState } from 'preact/hooks';
import { answer, api, formatDate, type Answer, type paths } from './api.ts';
import { DeliveryLog } from './delivery-log.tsx';
import { CopyButton, ErrorMessage, Field, Notice, PageHeading, sendForm, Status, useAction, useLoad } from './ui.tsx';

type Endpoint = Answer<'/api/v1/webhooks/endpoints', 'get'>['endpoints'][number];
type WebhookEvent = paths['/api/v1/webhooks/endpoints']['post']['requestBody']['content']['application/json']['events'][number];

/** Every event an endpoint can ask for (the type makes the list complete), with what it means. */
const EVENT_LABELS: Record<WebhookEvent, string> = {
  'generation.completed': 'A generation completed',
  'generation.failed': 'A generation failed',
  'discovery.completed': 'A discovery completed',
  'discovery.failed': 'A discovery failed',
};
const EVENTS = Object.keys(EVENT_LABELS) as WebhookEvent[];

function CreateEndpoint({ onCreated }: { onCreated: () => void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(['generation.completed', 'generation.failed']);
  const [errors, setErrors] = useState<{ url?: string; events?: string }>({});
  const [error, setError] = useState<unknown>(null);
  const [created, setCreated] = useState<{ url: string; secret: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const toggle = (event: WebhookEvent, on: boolean) => setEvents((list) => (on ? [...list, event] : list.filter((e) => e !== event)));

  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    const found = { url: url.trim() ? undefined : 'Enter the address that receives the events.', events: events.length ? undefined : 'Choose at least one event.' };
    setErrors(found);
    if (found.url || found.events) return;
    const create = async () => {
      const result = await answer(api.POST('/api/v1/webhooks/endpoints', { body: { url: url.trim(), events } }));
      setCreated({ url: result.endpoint.url, secret: result.secret });
      setUrl('');
      onCreated();
    };
    await sendForm(create, { field: 'url', setFieldError: (message) => setErrors({ url: message }), setError, setBusy });
  };

  return (
    <section class="card" aria-labelledby="new-endpoint-title">
      <h2 id="new-endpoint-title">Add an endpoint</h2>
      <form onSubmit={submit} noValidate>
        <Field id="endpoint-url" label="Endpoint URL" type="url" value={url} onInput={setUrl} error={errors.url} required hint="Receives a signed POST (Standard Webhooks) for each event" />
        <fieldset class="events">
          <legend>Events</legend>
          {EVENTS.map((event) => (
            <label key={event}>
              <input type="checkbox" checked={events.includes(event)} onChange={(e) => toggle(event, (e.target as HTMLInputElement).checked)} /> {EVENT_LABELS[event]} <code>{event}</code>
            </label>
          ))}
          {errors.events ? <p class="field-error">{errors.events}</p> : null}
        </fieldset>
        <button type="submit" disabled={busy}>
          Add endpoint
        </button>
      </form>
      {created ? (
        <Notice kind="warning">
          <p>
            Signing secret of <strong>{created.url}</strong>. It is shown only once: store it where your receiver verifies signatures.
          </p>
          <div class="key-box">
            <code data-testid="webhook-secret">{created.secret}</code>
            <CopyButton text={created.secret} label="Copy signing secret" />
          </div>
        </Notice>
      ) : null}
      <ErrorMessage error={error} />
    </section>
  );
}

/** An endpoint's address, status, events and age, and why it is disabled when it is. */
function EndpointSummary({ endpoint }: { endpoint: Endpoint }) {
  return (
    <>
      <h3 class="break">{endpoint.url}</h3>
      <p>
        <Status value={endpoint.status} /> {endpoint.events.map((e) => <code key={e}>{e} </code>)}
        <span class="muted"> · added {formatDate(endpoint.createdAt)}</span>
      </p>
      {endpoint.status === 'disabled' ? (
        <Notice kind="warning">
          Disabled {formatDate(endpoint.disabledAt)}: every attempt failed for a day. New events are not sent to it until you enable it.
        </Notice>
      ) : null}
    </>
  );
}

/**
 * What an endpoint card's buttons do: send a test event (then open the log, `onTested`), enable,
 * delete; busy while one runs, its error, and its answer's message as the card's notice.
 */
function useEndpointActions(endpoint: Endpoint, onChange: () => void, onTested: () => void) {
  const action = useAction();
  const [notice, setNotice] = useState<string | null>(null);
  const path = { params: { path: { id: endpoint.id } } };

  /** Runs an action whose answer's message, if any, is shown as the card's notice. */
  const act = (work: () => Promise<string | null>) =>
    action.act(async () => {
      setNotice(null);
      setNotice(await work());
    });
  const sendTest = () =>
    act(async () => {
      const result = await answer(api.POST('/api/v1/webhooks/endpoints/{id}/test', path));
      onTested();
      return result.message;
    });
  const enable = () =>
    act(async () => {
      const result = await answer(api.POST('/api/v1/webhooks/endpoints/{id}/enable', path));
      onChange();
      return result.message;
    });
  const remove = () => {
    if (!window.confirm(`Delete the endpoint ${endpoint.url} and its delivery log?`)) return;
    void act(async () => {
      await answer(api.DELETE('/api/v1/webhooks/endpoints/{id}', path));
      onChange();
      return null;
    });
  };
  return { busy: action.busy, error: action.error, notice, sendTest, enable, remove };
}

function EndpointCard({ endpoint, onChange }: { endpoint: Endpoint; onChange: () => void }) {
  const [showLog, setShowLog] = useState(false);
  const [logVersion, setLogVersion] = useState(0);
  const { busy, error, notice, sendTest, enable, remove } = useEndpointActions(endpoint, onChange, () => {
    setShowLog(true);
    setLogVersion((v) => v + 1);
  });

  return (
    <article class="card endpoint" aria-label={`Endpoint ${endpoint.url}`}>
      <EndpointSummary endpoint={endpoint} />
      <p class="row">
        {endpoint.status === 'disabled' ? (
          <button type="button" onClick={enable} disabled={busy}>
            Enable
          </button>
        ) : (
          <button type="button" class="secondary" onClick={sendTest} disabled={busy}>
            Send test event
          </button>
        )}
        <button type="button" class="secondary" onClick={() => setShowLog(!showLog)} aria-expanded={showLog}>
          {showLog ? 'Hide delivery log' : 'Show delivery log'}
        </button>
        <button type="button" class="danger" onClick={remove} disabled={busy}>
          Delete
        </button>
      </p>
      {notice ? <p role="status">{notice}</p> : null}
      <ErrorMessage error={error} />
      {showLog ? <DeliveryLog endpointId={endpoint.id} version={logVersion} /> : null}
    </article>
  );
}

export function WebhooksPage() {
  const endpoints = useLoad(() => answer(api.GET('/api/v1/webhooks/endpoints')));
  return (
    <>
      <PageHeading>Webhooks</PageHeading>
      <p>Your endpoints receive a signed POST when a job of yours ends. Failed deliveries are retried for about a day.</p>
      <CreateEndpoint onCreated={endpoints.reload} />
      <section aria-labelledby="endpoints-title">
        <h2 id="endpoints-title">Your endpoints</h2>
        <ErrorMessage error={endpoints.error} />
        {endpoints.data ? (
          endpoints.data.endpoints.length === 0 ? (
            <p>No endpoints yet.</p>
          ) : (
            endpoints.data.endpoints.map((endpoint) => <EndpointCard key={endpoint.id} endpoint={endpoint} onChange={endpoints.reload} />)
          )
        ) : endpoints.loading ? (
          <p>Loading…</p>
        ) : null}
      </section>
    </>
  );
}
