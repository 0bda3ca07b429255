/**
 * The Generate form: a site's address and the options of POST /generate (pages, method, full
 * text, path filters, token budget), its price as the user types, then the job it started.
 * Its initial values and limits are the service's own (service-options.ts).
 */
import { useEffect, useState } from 'preact/hooks';
import { answer, api } from './api.ts';
import { CostLine, runsWithoutAi, useEstimate } from './cost-estimate.tsx';
import { generationOptionSchema, rangeHint, wholeNumber, type GenerateBody, type GenerationMethod, type GenerationOptionSchema, type RenderMode } from './service-options.ts';
import { JobPanel, type StartedJob } from './job-panel.tsx';
import { ErrorMessage, Field, sendForm, useLoad } from './ui.tsx';

interface FormState {
  url: string;
  maxUrls: string;
  method: GenerationMethod;
  fullText: boolean;
  includePaths: string;
  excludePaths: string;
  maxTokens: string;
  render: RenderMode;
  linkMarkdown: boolean;
}
type Errors = Partial<Record<'url' | 'maxUrls' | 'maxTokens', string>>;

const initialState = (schema: GenerationOptionSchema): FormState => ({
  url: '',
  maxUrls: String(schema.maxUrls.default),
  method: schema.generationMethod.default,
  fullText: schema.showFullText.default,
  includePaths: '',
  excludePaths: '',
  maxTokens: '',
  render: schema.render.default,
  linkMarkdown: schema.linkMarkdown.default,
});

const lines = (text: string) => text.split('\n').map((line) => line.trim()).filter(Boolean);

/** The request body, or what the user must fix first. Only what the user set is sent: the service fills in the rest. */
function toBody(form: FormState, schema: GenerationOptionSchema): { body: GenerateBody | null; errors: Errors } {
  const errors: Errors = {};
  try {
    const parsed = new URL(form.url.trim());
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error();
  } catch {
    errors.url = 'Enter a full http:// or https:// address.';
  }
  const maxUrls = wholeNumber(form.maxUrls, schema.maxUrls);
  if (typeof maxUrls === 'string') errors.maxUrls = maxUrls;
  const maxTokens = form.maxTokens.trim() === '' ? null : wholeNumber(form.maxTokens, schema.maxTokens);
  if (typeof maxTokens === 'string') errors.maxTokens = maxTokens;
  if (Object.keys(errors).length) return { body: null, errors };
  const [includePaths, excludePaths] = [lines(form.includePaths), lines(form.excludePaths)];
  const options: NonNullable<GenerateBody['options']> = { maxUrls: maxUrls as number, generationMethod: form.method, showFullText: form.fullText };
  if (includePaths.length) options.includePaths = includePaths;
  if (excludePaths.length) options.excludePaths = excludePaths;
  if (maxTokens !== null) options.maxTokens = maxTokens as number;
  if (form.render !== schema.render.default) options.render = form.render;
  if (form.linkMarkdown !== schema.linkMarkdown.default) options.linkMarkdown = form.linkMarkdown;
  return { body: { url: form.url.trim(), options }, errors };
}

/** What each rendering mode the service offers is called here (one it adds later shows by its name). */
const RENDER_LABELS: Partial<Record<RenderMode, string>> = { never: 'Never', auto: 'When a page looks like a script shell', always: 'Always' };

/** Why the form cannot be priced yet, in the words of its own checks. */
function priceBlockedBy(form: FormState, errors: Errors): string | null {
  if (errors.url) return form.url.trim() ? `Website URL: ${errors.url}` : "Enter the website's address to see what the job costs.";
  if (errors.maxUrls) return `Maximum pages: ${errors.maxUrls}`;
  if (errors.maxTokens) return `Token budget: ${errors.maxTokens}`;
  return null;
}

function PatternsField({ id, label, value, onInput, hint }: { id: string; label: string; value: string; onInput: (v: string) => void; hint: string }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <textarea id={id} rows={2} value={value} aria-describedby={`${id}-hint`} onInput={(e) => onInput((e.target as HTMLTextAreaElement).value)} />
      <p class="hint" id={`${id}-hint`}>
        {hint}
      </p>
    </div>
  );
}

/** What each group of the form's fields is given: the values, their setter, the errors and the service's options. */
interface FieldsProps {
  form: FormState;
  set: <K extends keyof FormState>(key: K) => (value: FormState[K]) => void;
  errors: Errors;
  schema: GenerationOptionSchema;
}

/** The address, how many pages, the method (saying so once an estimate showed no AI provider) and the full text. */
function MainFields({ form, set, errors, schema, noAi }: FieldsProps & { noAi: boolean }) {
  return (
    <>
      <Field id="gen-url" label="Website URL" type="url" value={form.url} onInput={set('url')} error={errors.url} required hint="For example https://docs.example.com" />
      <div class="grid2">
        <Field
          id="gen-max"
          label="Maximum pages"
          type="number"
          value={form.maxUrls}
          onInput={set('maxUrls')}
          error={errors.maxUrls}
          hint={rangeHint(schema.maxUrls)}
          inputMode="numeric"
        />
        <div class="field">
          <label for="gen-method">Method</label>
          <select id="gen-method" value={form.method} onChange={(e) => set('method')((e.target as HTMLSelectElement).value as GenerationMethod)}>
            <option value="simple">Simple</option>
            <option value="enhanced">{noAi ? 'Enhanced (needs an AI provider)' : 'Enhanced (AI descriptions)'}</option>
          </select>
        </div>
      </div>
      <div class="field checkbox">
        <input id="gen-full" type="checkbox" checked={form.fullText} onChange={(e) => set('fullText')((e.target as HTMLInputElement).checked)} />
        <label for="gen-full">Also build llms-full.txt (full text)</label>
      </div>
    </>
  );
}

function RenderingOptions({ form, set, schema }: FieldsProps) {
  return (
    <details class="more">
      <summary>Rendering and markdown copies</summary>
      <div class="field">
        <label for="gen-render">Render pages in a browser</label>
        <select id="gen-render" value={form.render} aria-describedby="gen-render-hint" onChange={(e) => set('render')((e.target as HTMLSelectElement).value as RenderMode)}>
          {schema.render.values.map((mode) => (
            <option key={mode} value={mode}>
              {RENDER_LABELS[mode] ?? mode}
            </option>
          ))}
        </select>
        <p class="hint" id="gen-render-hint">
          {schema.render.description}
        </p>
      </div>
      <div class="field checkbox">
        <input id="gen-link-markdown" type="checkbox" checked={form.linkMarkdown} aria-describedby="gen-link-markdown-hint" onChange={(e) => set('linkMarkdown')((e.target as HTMLInputElement).checked)} />
        <label for="gen-link-markdown">Link each page to a markdown copy</label>
      </div>
      <p class="hint" id="gen-link-markdown-hint">
        {schema.linkMarkdown.description}
      </p>
    </details>
  );
}

function FilterOptions({ form, set, errors, schema }: FieldsProps) {
  return (
    <details class="more">
      <summary>Path filters and token budget</summary>
      <PatternsField id="gen-include" label="Only these paths (one pattern a line)" value={form.includePaths} onInput={set('includePaths')} hint={schema.includePaths.description} />
      <PatternsField id="gen-exclude" label="Never these paths (one pattern a line)" value={form.excludePaths} onInput={set('excludePaths')} hint="For example /blog/ or /**/changelog" />
      <Field
        id="gen-max-tokens"
        label="Token budget of llms-full.txt"
        type="number"
        value={form.maxTokens}
        onInput={set('maxTokens')}
        error={errors.maxTokens}
        hint={`Optional, at least ${schema.maxTokens.minimum.toLocaleString('en')}: ${schema.maxTokens.description}`}
        inputMode="numeric"
      />
    </details>
  );
}

/** `onStarted(null)` when a start is asked for: the last job's panel goes, so its result is not read as the new job's. */
function Form({ schema, balance, onStarted }: { schema: GenerationOptionSchema; balance: number | null; onStarted: (job: StartedJob | null) => void }) {
  const [form, setForm] = useState<FormState>(() => initialState(schema));
  const [errors, setErrors] = useState<Errors>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof FormState>(key: K) => (value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));
  const { body, errors: unfinished } = toBody(form, schema);
  const estimate = useEstimate(body);
  // Once an estimate showed it, the method list says so too.
  const [noAi, setNoAi] = useState(false);
  useEffect(() => {
    if (runsWithoutAi(estimate)) setNoAi(true);
  }, [estimate]);

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    const checked = toBody(form, schema);
    setErrors(checked.errors);
    if (!checked.body) return document.getElementById(checked.errors.url ? 'gen-url' : checked.errors.maxUrls ? 'gen-max' : 'gen-max-tokens')?.focus();
    const body = checked.body;
    onStarted(null);
    await sendForm(async () => onStarted(await answer(api.POST('/api/v1/generate', { body }))), {
      field: 'url',
      setFieldError: (url) => setErrors({ url }),
      setError,
      setBusy,
    });
  };

  const fields: FieldsProps = { form, set, errors, schema };
  return (
    <form onSubmit={submit} noValidate>
      <MainFields {...fields} noAi={noAi} />
      <RenderingOptions {...fields} />
      <FilterOptions {...fields} />
      <CostLine {...estimate} balance={balance} blocked={priceBlockedBy(form, unfinished)} />
      <ErrorMessage error={error} />
      <button type="submit" disabled={busy}>
        {busy ? 'Starting…' : 'Generate'}
      </button>
    </form>
  );
}

export function GeneratePanel({ balance, onChange }: { balance: number | null; onChange: () => void }) {
  const schema = useLoad(generationOptionSchema);
  const [job, setJob] = useState<StartedJob | null>(null);
  useEffect(() => {
    if (job) onChange();
  }, [job?.jobId]);
  return (
    <section class="card" aria-labelledby="generate-title">
      <h2 id="generate-title">Generate llms.txt</h2>
      <ErrorMessage error={schema.error} />
      {schema.data ? <Form schema={schema.data} balance={balance} onStarted={setJob} /> : schema.loading ? <p>Loading…</p> : null}
      {job ? <JobPanel started={job} onFinished={onChange} /> : null}
    </section>
  );
}
