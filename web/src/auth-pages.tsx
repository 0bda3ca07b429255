import { useState } from 'preact/hooks';
import { answer, ApiError, publicApi, session, withKey } from './api.ts';
import { navigate } from './router.ts';
import { CopyButton, ErrorMessage, Field, Notice, PageHeading } from './ui.tsx';

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

export function SignupPage() {
  const [form, setForm] = useState<SignupForm>({ email: '', firstName: '', lastName: '', company: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof SignupForm, string>>>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [apiKey, setApiKey] = useState<string | null>(null);
  const set = (key: keyof SignupForm) => (value: string) => setForm({ ...form, [key]: value });

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    const found = validateSignup(form);
    setErrors(found);
    if (Object.keys(found).length) return focusFirstError(found);
    setBusy(true);
    try {
      const optional = (name: 'lastName' | 'company') => (form[name].trim() ? { [name]: form[name].trim() } : {});
      const body = { email: form.email.trim(), firstName: form.firstName.trim(), ...optional('lastName'), ...optional('company') };
      const result = await answer(publicApi.POST('/api/v1/accounts', { body }));
      setApiKey(result.apiKey);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        const next = { email: err.message };
        setErrors(next);
        focusFirstError(next);
      } else if (err instanceof ApiError && err.field && err.field in form) {
        const next = { [err.field]: err.message.replace(/^Validation error: /, '') };
        setErrors(next);
        focusFirstError(next);
      } else setError(err);
    } finally {
      setBusy(false);
    }
  };

  const [continuing, setContinuing] = useState(false);
  const proceed = async () => {
    if (!apiKey) return;
    setContinuing(true);
    setError(null);
    try {
      await loginWithKey(apiKey);
      navigate('/dashboard');
    } catch (err) {
      setError(err);
      setContinuing(false);
    }
  };

  if (apiKey) {
    return (
      <section class="narrow">
        <PageHeading>Your account is ready</PageHeading>
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
        <button type="button" onClick={proceed} disabled={continuing}>
          {continuing ? 'Opening…' : "I've saved my key, continue to the dashboard"}
        </button>
      </section>
    );
  }

  return (
    <section class="narrow">
      <PageHeading>Create your account</PageHeading>
      <p>New accounts start on the free plan with a few credits to try the service.</p>
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
      <p>
        Already have an account? <a href="/login">Log in</a>
      </p>
    </section>
  );
}

export function LoginPage({ reason }: { reason?: string | null }) {
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [codeSent, setCodeSent] = useState(false);
  const [emailErrors, setEmailErrors] = useState<{ email?: string; code?: string }>({});
  const [emailError, setEmailError] = useState<unknown>(null);
  const [apiKey, setApiKey] = useState('');
  const [keyError, setKeyError] = useState<string | undefined>();
  const [otherKeyError, setOtherKeyError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const sendCode = async (event: Event) => {
    event.preventDefault();
    setEmailError(null);
    if (!EMAIL.test(email.trim())) {
      setEmailErrors({ email: 'Enter a valid e-mail address.' });
      return focusFirstError({ 'login-email': 'x' });
    }
    setEmailErrors({});
    setBusy(true);
    try {
      await answer(publicApi.POST('/api/v1/auth/login/email', { body: { email: email.trim() } }));
      setCodeSent(true);
      setTimeout(() => document.getElementById('login-code')?.focus());
    } catch (err) {
      setEmailError(err);
    } finally {
      setBusy(false);
    }
  };

  const verify = async (event: Event) => {
    event.preventDefault();
    setEmailError(null);
    if (!/^\d{6}$/.test(code.trim())) {
      setEmailErrors({ code: 'Enter the 6-digit code from the e-mail.' });
      return focusFirstError({ 'login-code': 'x' });
    }
    setBusy(true);
    try {
      const result = await answer(publicApi.POST('/api/v1/auth/login/verify', { body: { email: email.trim(), code: code.trim() } }));
      session.start(result.tokens);
      navigate('/dashboard');
    } catch (err) {
      if (err instanceof ApiError && err.status < 500 && err.status > 0) {
        setEmailErrors({ code: err.message });
        focusFirstError({ 'login-code': 'x' });
      } else setEmailError(err);
    } finally {
      setBusy(false);
    }
  };

  const keyLogin = async (event: Event) => {
    event.preventDefault();
    setOtherKeyError(null);
    if (!apiKey.trim()) {
      setKeyError('Paste your API key.');
      return focusFirstError({ 'login-key': 'x' });
    }
    setKeyError(undefined);
    setBusy(true);
    try {
      await loginWithKey(apiKey.trim());
      navigate('/dashboard');
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        setKeyError('That API key was not accepted. Check it and try again.');
        focusFirstError({ 'login-key': 'x' });
      } else setOtherKeyError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="narrow">
      <PageHeading>Log in</PageHeading>
      {reason ? <Notice kind="warning">{reason}</Notice> : null}
      <div class="card">
        <h2>With a code by e-mail</h2>
        {!codeSent ? (
          <form onSubmit={sendCode} noValidate>
            <Field id="login-email" label="E-mail" type="email" value={email} onInput={setEmail} error={emailErrors.email} required autoComplete="email" />
            <button type="submit" disabled={busy}>
              Send me a code
            </button>
          </form>
        ) : (
          <form onSubmit={verify} noValidate>
            <Notice>If an account exists for {email}, a 6-digit code is on its way. It expires soon.</Notice>
            <Field id="login-code" label="Login code" value={code} onInput={setCode} error={emailErrors.code} required inputMode="numeric" autoComplete="one-time-code" />
            <div class="row">
              <button type="submit" disabled={busy}>
                Log in
              </button>
              <button type="button" class="secondary" onClick={() => setCodeSent(false)}>
                Use another e-mail
              </button>
            </div>
          </form>
        )}
        <ErrorMessage error={emailError} />
      </div>
      <div class="card">
        <h2>With an API key</h2>
        <form onSubmit={keyLogin} noValidate>
          <Field id="login-key" label="API key" type="password" value={apiKey} onInput={setApiKey} error={keyError} required autoComplete="off" />
          <ErrorMessage error={otherKeyError} />
          <button type="submit" disabled={busy}>
            Log in with API key
          </button>
        </form>
      </div>
      <p>
        No account yet? <a href="/signup">Sign up</a>
      </p>
    </section>
  );
}
