import { useEffect, useState } from 'preact/hooks';
import { answer, api, ApiError, formatDate, publicApi, session, withKey, type Answer, type Me } from './api.ts';
import { navigate } from './router.ts';
import { CopyButton, ErrorMessage, Field, Notice, PageHeading, sendForm, useLoad } from './ui.tsx';

type ApiKey = Answer<'/api/v1/api-keys', 'get'>['apiKeys'][number];

/** The error shown under the create form, which also reports a failed revocation. */
type PageError = { error: unknown; setError: (err: unknown) => void };

/** The create form: a key's name, then the new key, shown once. */
function CreateKey({ onCreated, error, setError }: { onCreated: () => void } & PageError) {
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const create = async (event: Event) => {
    event.preventDefault();
    setError(null);
    if (!name.trim() || name.length > 100) {
      setNameError('Enter a name of 1 to 100 characters.');
      return document.getElementById('key-name')?.focus();
    }
    setNameError(undefined);
    const create = async () => {
      const result = await answer(api.POST('/api/v1/api-keys', { body: { name: name.trim() } }));
      setCreated({ name: result.apiKey.name, key: result.key });
      setName('');
      onCreated();
    };
    await sendForm(create, { field: 'name', setFieldError: setNameError, setError, setBusy });
  };

  return (
    <section class="card" aria-labelledby="new-key-title">
      <h2 id="new-key-title">Create a key</h2>
      <form onSubmit={create} noValidate>
        <Field id="key-name" label="Key name" value={name} onInput={setName} error={nameError} required hint="For example: CI pipeline" />
        <button type="submit" disabled={busy}>
          Create key
        </button>
      </form>
      {created ? (
        <Notice kind="warning">
          <p>
            New key <strong>{created.name}</strong>. It is shown only once:
          </p>
          <div class="key-box">
            <code data-testid="new-key">{created.key}</code>
            <CopyButton text={created.key} label="Copy API key" />
          </div>
        </Notice>
      ) : null}
      <ErrorMessage error={error} />
    </section>
  );
}

function KeysTable({ keys, onRevoke }: { keys: ApiKey[]; onRevoke: (key: ApiKey) => void }) {
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Key</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">
              <span class="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => (
            <tr key={k.id}>
              <td>{k.name}</td>
              <td>
                <code>{k.prefix}…</code>
              </td>
              <td>{formatDate(k.createdAt)}</td>
              <td>{formatDate(k.lastUsedAt)}</td>
              <td>
                <button type="button" class="danger" onClick={() => onRevoke(k)} aria-label={`Revoke ${k.name}`}>
                  Revoke
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function KeysPage() {
  const keys = useLoad(() => answer(api.GET('/api/v1/api-keys')));
  const [error, setError] = useState<unknown>(null);

  const revoke = async (key: ApiKey) => {
    if (!confirm(`Revoke the API key "${key.name}"? Programs using it stop working at once.`)) return;
    setError(null);
    try {
      await answer(api.DELETE('/api/v1/api-keys/{id}', { params: { path: { id: key.id } } }));
      keys.reload();
    } catch (err) {
      setError(err);
    }
  };

  return (
    <>
      <PageHeading>API keys</PageHeading>
      <CreateKey onCreated={keys.reload} error={error} setError={setError} />
      <section class="card" aria-labelledby="keys-title">
        <h2 id="keys-title">Your keys</h2>
        <ErrorMessage error={keys.error} />
        {keys.data ? <KeysTable keys={keys.data.apiKeys} onRevoke={revoke} /> : keys.loading ? <p>Loading…</p> : null}
      </section>
    </>
  );
}

export function ProfilePage({ me, onSaved }: { me: Me | null; onSaved: () => void }) {
  const [form, setForm] = useState({ firstName: '', lastName: '', company: '' });
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (me) setForm({ firstName: me.firstName, lastName: me.lastName ?? '', company: me.company ?? '' });
  }, [me?.id]);
  const set = (key: keyof typeof form) => (value: string) => setForm({ ...form, [key]: value });

  const save = async (event: Event) => {
    event.preventDefault();
    setSaved(false);
    setError(null);
    const found: Record<string, string> = {};
    if (!form.firstName.trim() || form.firstName.length > 50) found.firstName = 'First name must be 1 to 50 characters.';
    if (form.lastName.length > 50) found.lastName = 'Last name must be at most 50 characters.';
    if (form.company.length > 100) found.company = 'Company must be at most 100 characters.';
    setErrors(found);
    const first = Object.keys(found)[0];
    if (first) return document.getElementById(first)?.focus();
    try {
      // Sign-up leaves the last name optional: an empty one is not sent (the API takes 1 to 50 characters).
      const lastName = form.lastName.trim() ? { lastName: form.lastName.trim() } : {};
      const company = form.company.trim() || me?.company ? { company: form.company.trim() } : {};
      await answer(api.PUT('/api/v1/accounts/profile', { body: { firstName: form.firstName.trim(), ...lastName, ...company } }));
      setSaved(true);
      onSaved();
    } catch (err) {
      if (err instanceof ApiError && err.field && err.field in form) setErrors({ [err.field]: err.message.replace(/^Validation error: /, '') });
      else setError(err);
    }
  };

  return (
    <>
      <PageHeading>Profile</PageHeading>
      <section class="card" aria-labelledby="profile-title">
        <h2 id="profile-title">Your details</h2>
        {me ? (
          <p>
            E-mail: <strong>{me.email}</strong> · plan: <strong>{me.plan}</strong>
          </p>
        ) : null}
        <form onSubmit={save} noValidate>
          <Field id="firstName" label="First name" value={form.firstName} onInput={set('firstName')} error={errors.firstName} required />
          <Field id="lastName" label="Last name" value={form.lastName} onInput={set('lastName')} error={errors.lastName} hint="Optional, up to 50 characters" />
          <Field id="company" label="Company" value={form.company} onInput={set('company')} error={errors.company} hint="Optional, up to 100 characters" />
          <ErrorMessage error={error} />
          {saved ? <Notice kind="success">Profile saved.</Notice> : null}
          <button type="submit">Save profile</button>
        </form>
      </section>
      <DeleteAccount />
    </>
  );
}

function DeleteAccount() {
  const [key, setKey] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  const [keyError, setKeyError] = useState<string | undefined>();
  const [error, setError] = useState<unknown>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setKeyError(undefined);
    if (!key.trim()) {
      setKeyError('Paste one of your API keys to confirm it is you.');
      return document.getElementById('delete-key')?.focus();
    }
    if (!confirmed) {
      setError(new Error('Tick the box to confirm that everything will be deleted.'));
      return document.getElementById('delete-confirm')?.focus();
    }
    try {
      await answer(publicApi.DELETE('/api/v1/accounts', { headers: withKey(key.trim()) }));
      session.end();
      navigate('/?deleted=1');
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) setKeyError('That API key was not accepted.');
      else setError(err);
    }
  };
  return (
    <section class="card danger-zone" aria-labelledby="delete-title">
      <h2 id="delete-title">Delete account</h2>
      <p>This permanently deletes your account, sites, API keys, discoveries and jobs. Unused credits are lost.</p>
      <form onSubmit={submit} noValidate>
        <Field id="delete-key" label="API key" type="password" value={key} onInput={setKey} error={keyError} required autoComplete="off" />
        <div class="field checkbox">
          <input id="delete-confirm" type="checkbox" checked={confirmed} onChange={(e) => {
              const checked = (e.target as HTMLInputElement).checked;
              setConfirmed(checked);
              if (checked) setError(null);
            }} />
          <label for="delete-confirm">I understand that this cannot be undone</label>
        </div>
        <ErrorMessage error={error} />
        <button type="submit" class="danger">
          Delete my account
        </button>
      </form>
    </section>
  );
}
