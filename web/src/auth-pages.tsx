import { useState } from 'preact/hooks';
import { answer, ApiError, publicApi, session, withKey } from './api.ts';
import { navigate } from './router.ts';
import { CopyButton, ErrorMessage, Field, Notice, PageHeading, sendForm, useAction } from './ui.tsx';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface SignupForm {
  email: string;
  firstName: string;
  lastName: string;
  company: string;
}

function validateSignup(form: SignupForm): Partial<Record<keyof SignupForm, string>> {
  const errors: Partial<Record<keyof SignupForm, string>> = {};
  if (!form.email.trim()) errors.email = 'Enter your e-mail address.';
  else if (!EMAIL.test(form.email.trim())) errors.email = 'Enter a valid e-mail address, like name@example.com.';
  if (!form.firstName.trim()) errors.firstName = 'Enter your first name.';
  else if (form.firstName.length > 50) errors.firstName = 'First name must be at most 50 characters.';
  if (form.lastName.length > 50) errors.lastName = 'Last name must be at most 50 characters.';
  if (form.company.length > 100) errors.company = 'Company must be at most 100 characters.';
  return errors;
}

function focusFirstError(errors: Record<string, string | undefined>) {
  const first = Object.keys(errors).find((k) => errors[k]);
  if (first) setTimeout(() => document.getElementById(first)?.focus());
}

async function loginWithKey(apiKey: string) {
  const result = await answer(publicApi.POST('/api/v1/auth/login', { headers: withKey(apiKey) }));
  session.start(result.tokens);
}

type SignupErrors = Partial<Record<keyof SignupForm, string>>;

/** Creates the account: its API key. Optional fields left empty are not sent. */
async function createAccount(form: SignupForm): Promise<string> {
  const optional = (name: 'lastName' | 'company') => (form[name].trim() ? { [name]: form[name].trim() } : {});
  const body = { email: form.email.trim(), firstName: form.firstName.trim(), ...optional('lastName'), ...optional('company') };
  return (await answer(publicApi.POST('/api/v1/accounts', { body }))).apiKey;
}

/** The field an API error is about, with its message (an e-mail already taken, a field the API rejected), or null for any other error. */
function signupFieldError(err: unknown, form: SignupForm): SignupErrors | null {
  if (err instanceof ApiError && err.status === 409) return { email: err.message };
  if (err instanceof ApiError && err.field && err.field in form) return { [err.field]: err.message.replace(/^Validation error: /, '') };
  return null;
}

/** The sign-up form: checked here first, then by the API, each error next to its field. */
function NewAccountForm({ onCreated }: { onCreated: (apiKey: string) => void }) {
  const [form, setForm] = useState<SignupForm>({ email: '', firstName: '', lastName: '', company: '' });
  const [errors, setErrors] = useState<SignupErrors>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const set = (key: keyof SignupForm) => (value: string) => setForm({ ...form, [key]: value });
  const showErrors = (found: SignupErrors) => {
    setErrors(found);
    focusFirstError(found);
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    const found = validateSignup(form);
    setErrors(found);
    if (Object.keys(found).length) return focusFirstError(found);
    setBusy(true);
    try {
      onCreated(await createAccount(form));
    } catch (err) {
      const found = signupFieldError(err, form);
      if (found) showErrors(found);
      else setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Field id="email" label="E-mail" type="email" value={form.email} onInput={set('email')} error={errors.email} required autoComplete="email" />
      <Field id="firstName" label="First name" value={form.firstName} onInput={set('firstName')} error={errors.firstName} required hint="1 to 50 characters" autoComplete="given-name" />
      <Field id="lastName" label="Last name" value={form.lastName} onInput={set('lastName')} error={errors.lastName} hint="Optional, up to 50 characters" autoComplete="family-name" />
      <Field id="company" label="Company" value={form.company} onInput={set('company')} error={errors.company} hint="Optional, up to 100 characters" autoComplete="organization" />
      <ErrorMessage error={error} />
      <button type="submit" disabled={busy}>
        {busy ? 'Creating…' : 'Sign up'}
      </button>
    </form>
  );
}

/** The new account's API key, shown once, and the way on to the dashboard (logged in with that key). */
function NewKey({ apiKey }: { apiKey: string }) {
  const { busy, error, act } = useAction();
  const proceed = () =>
    act(async () => {
      await loginWithKey(apiKey);
      navigate('/dashboard');
    });
  return (
    <>
      <Notice kind="warning">
        <p>
          <strong>This is your API key. It is shown only once</strong>: copy it now and keep it somewhere safe. You need it to call the API, to log in with a
          key and to delete your account.
        </p>
      </Notice>
      <div class="key-box">
        <code data-testid="api-key">{apiKey}</code>
        <CopyButton text={apiKey} label="Copy API key" />
      </div>
      <ErrorMessage error={error} />
      <button type="button" onClick={proceed} disabled={busy}>
        {busy ? 'Opening…' : "I've saved my key, continue to the dashboard"}
      </button>
    </>
  );
}

export function SignupPage() {
  const [apiKey, setApiKey] = useState<string | null>(null);
  return (
    <section class="narrow">
      <PageHeading>{apiKey ? 'Your account is ready' : 'Create your account'}</PageHeading>
      {apiKey ? (
        <NewKey apiKey={apiKey} />
      ) : (
        <>
          <p>New accounts start on the free plan with a few credits to try the service.</p>
          <NewAccountForm onCreated={setApiKey} />
          <p>
            Already have an account? <a href="/login">Log in</a>
          </p>
        </>
      )}
    </section>
  );
}

/** The two login forms share one busy state: while one is sending, neither can be sent. */
type Busy = { busy: boolean; setBusy: (busy: boolean) => void };

/** Moves focus to a field once it shows its error. */
const focusField = (id: string) => focusFirstError({ [id]: 'x' });

/** An error the verification answered about the code itself (a wrong or expired one), shown at the code field. */
const codeMessage = (err: unknown) => (err instanceof ApiError && err.status < 500 && err.status > 0 ? err.message : null);

/** The second step of the e-mail login: the code the e-mail brought, or back to another address. */
function CodeForm(props: { email: string; code: string; onInput: (code: string) => void; error?: string; busy: boolean; onSubmit: (event: Event) => void; onBack: () => void }) {
  return (
    <form onSubmit={props.onSubmit} noValidate>
      <Notice>If an account exists for {props.email}, a 6-digit code is on its way. It expires soon.</Notice>
      <Field id="login-code" label="Login code" value={props.code} onInput={props.onInput} error={props.error} required inputMode="numeric" autoComplete="one-time-code" />
      <div class="row">
        <button type="submit" disabled={props.busy}>
          Log in
        </button>
        <button type="button" class="secondary" onClick={props.onBack}>
          Use another e-mail
        </button>
      </div>
    </form>
  );
}

function EmailLogin({ busy, setBusy }: Busy) {
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [codeSent, setCodeSent] = useState(false);
  const [errors, setErrors] = useState<{ email?: string; code?: string }>({});
  const [error, setError] = useState<unknown>(null);

  const sendCode = async (event: Event) => {
    event.preventDefault();
    setError(null);
    if (!EMAIL.test(email.trim())) {
      setErrors({ email: 'Enter a valid e-mail address.' });
      return focusField('login-email');
    }
    setErrors({});
    const request = async () => {
      await answer(publicApi.POST('/api/v1/auth/login/email', { body: { email: email.trim() } }));
      setCodeSent(true);
      setTimeout(() => document.getElementById('login-code')?.focus());
    };
    await sendForm(request, { setError, setBusy });
  };

  const verify = async (event: Event) => {
    event.preventDefault();
    setError(null);
    if (!/^\d{6}$/.test(code.trim())) {
      setErrors({ code: 'Enter the 6-digit code from the e-mail.' });
      return focusField('login-code');
    }
    const request = async () => {
      const result = await answer(publicApi.POST('/api/v1/auth/login/verify', { body: { email: email.trim(), code: code.trim() } }));
      session.start(result.tokens);
      navigate('/dashboard');
    };
    const setFieldError = (message: string) => {
      setErrors({ code: message });
      focusField('login-code');
    };
    await sendForm(request, { field: codeMessage, setFieldError, setError, setBusy });
  };

  return (
    <div class="card">
      <h2>With a code by e-mail</h2>
      {!codeSent ? (
        <form onSubmit={sendCode} noValidate>
          <Field id="login-email" label="E-mail" type="email" value={email} onInput={setEmail} error={errors.email} required autoComplete="email" />
          <button type="submit" disabled={busy}>
            Send me a code
          </button>
        </form>
      ) : (
        <CodeForm email={email} code={code} onInput={setCode} error={errors.code} busy={busy} onSubmit={verify} onBack={() => setCodeSent(false)} />
      )}
      <ErrorMessage error={error} />
    </div>
  );
}

function KeyLogin({ busy, setBusy }: Busy) {
  const [apiKey, setApiKey] = useState('');
  const [keyError, setKeyError] = useState<string | undefined>();
  const [error, setError] = useState<unknown>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    if (!apiKey.trim()) {
      setKeyError('Paste your API key.');
      return focusField('login-key');
    }
    setKeyError(undefined);
    const request = async () => {
      await loginWithKey(apiKey.trim());
      navigate('/dashboard');
    };
    const setFieldError = (message: string) => {
      setKeyError(message);
      focusField('login-key');
    };
    const field = (err: unknown) => (err instanceof ApiError && err.status === 401 ? 'That API key was not accepted. Check it and try again.' : null);
    await sendForm(request, { field, setFieldError, setError, setBusy });
  };

  return (
    <div class="card">
      <h2>With an API key</h2>
      <form onSubmit={submit} noValidate>
        <Field id="login-key" label="API key" type="password" value={apiKey} onInput={setApiKey} error={keyError} required autoComplete="off" />
        <ErrorMessage error={error} />
        <button type="submit" disabled={busy}>
          Log in with API key
        </button>
      </form>
    </div>
  );
}

export function LoginPage({ reason }: { reason?: string | null }) {
  const [busy, setBusy] = useState(false);
  return (
    <section class="narrow">
      <PageHeading>Log in</PageHeading>
      {reason ? <Notice kind="warning">{reason}</Notice> : null}
      <EmailLogin busy={busy} setBusy={setBusy} />
      <KeyLogin busy={busy} setBusy={setBusy} />
      <p>
        No account yet? <a href="/signup">Sign up</a>
      </p>
    </section>
  );
}
