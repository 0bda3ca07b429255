import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api.ts';

export interface FieldProps {
  id: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
  error?: string;
  type?: string;
  hint?: string;
  required?: boolean;
  autoComplete?: string;
  inputMode?: string;
}

export function Field({ id, label, value, onInput, error, type = 'text', hint, required, autoComplete, inputMode }: FieldProps) {
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </label>
      <input
        id={id}
        name={id}
        type={type as any}
        value={value}
        required={required}
        autoComplete={autoComplete}
        inputMode={inputMode as any}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={describedBy}
        onInput={(e) => onInput((e.target as HTMLInputElement).value)}
      />
      {hint ? (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The API's validation message about `field` (its `Validation error: ` prefix dropped), or null for any other error. */
export function fieldMessage(err: unknown, field: string): string | null {
  return err instanceof ApiError && err.field === field ? err.message.replace(/^Validation error: /, '') : null;
}

/**
 * Sends a form's request with the form busy meanwhile: the API's validation error about `field`
 * (or, when `field` is a function, an error it gives a message for) is shown at that field, any
 * other error (every one, without `field`) above the form (ErrorMessage).
 */
export async function sendForm(
  request: () => Promise<void>,
  form: { field?: string | ((err: unknown) => string | null); setFieldError?: (message: string) => void; setError: (err: unknown) => void; setBusy: (busy: boolean) => void },
): Promise<void> {
  form.setBusy(true);
  try {
    await request();
  } catch (err) {
    const message = typeof form.field === 'function' ? form.field(err) : form.field === undefined ? null : fieldMessage(err, form.field);
    if (message !== null && form.setFieldError) form.setFieldError(message);
    else form.setError(err);
  } finally {
    form.setBusy(false);
  }
}

/** A button's action: busy while it runs, and its error (cleared when the next one starts) for ErrorMessage. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, act };
}

export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof ApiError || error instanceof Error ? error.message : String(error);
  return (
    <p class="error" role="alert">
      {message}
    </p>
  );
}

export function Notice({ children, kind = 'info' }: { children: ComponentChildren; kind?: 'info' | 'success' | 'warning' }) {
  return (
    <div class={`notice ${kind}`} role="status">
      {children}
    </div>
  );
}

export function CopyButton({ text, label = 'Copy' }: { text: string | (() => Promise<string>); label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      const value = typeof text === 'string' ? text : await text();
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <button type="button" class="secondary" onClick={copy}>
      {state === 'copied' ? 'Copied!' : state === 'failed' ? 'Copy failed: select the text' : label}
    </button>
  );
}

/** Moves focus to the page heading when a screen opens, for keyboard and screen-reader users. */
export function PageHeading({ children }: { children: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <h1 tabIndex={-1} ref={ref}>
      {children}
    </h1>
  );
}

/** Loads data on mount and on demand; keeps the last error for display. */
/**
 * While `running`, calls `reload` one interval after each change of `version` (the data the last
 * call brought, or a count of calls): how every page follows jobs that are still working.
 */
export function usePolling(running: boolean, reload: () => void, version: unknown, intervalMs = 1000) {
  useEffect(() => {
    if (!running) return;
    const timer = window.setTimeout(reload, intervalMs);
    return () => clearTimeout(timer);
  }, [running, version]);
}

export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setLoading(true);
    load().then(
      (value) => {
        if (!live) return;
        setData(value);
        setError(null);
        setLoading(false);
      },
      (err) => {
        if (!live) return;
        setError(err);
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  return { data, error, loading, reload: () => setTick((t) => t + 1) };
}

export function Status({ value }: { value: string }) {
  return <span class={`status status-${value}`}>{value}</span>;
}

export function Pager({ page, totalPages, onPage, label, disabled }: { page: number; totalPages: number; onPage: (p: number) => void; label: string; disabled?: boolean }) {
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" class="secondary" disabled={page <= 1 || disabled} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {Math.max(1, totalPages)}
      </span>
      <button type="button" class="secondary" disabled={page >= totalPages || disabled} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

/** A resource that is missing or not the caller's: the API's message and a way back. */
export function NotFound({ title, message, back, backLabel }: { title: string; message: string; back: string; backLabel: string }) {
  return (
    <>
      <PageHeading>{title}</PageHeading>
      <p>
        {message}. <a href={back}>{backLabel}</a>
      </p>
    </>
  );
}

/** A list filter: a labelled select whose first choice, "All", is the empty value. */
/** A filter over `choices` (value, text), with "All" as ''. */
export function FilterSelect<T extends string>({ id, label, value, choices, onChange }: { id: string; label: string; value: T | ''; choices: Array<[T, string]>; onChange: (value: T | '') => void }) {
  return (
    <div class="field inline">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange((e.target as HTMLSelectElement).value as T | '')}>
        <option value="">All</option>
        {choices.map(([choice, text]) => (
          <option key={choice} value={choice}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}
