import { useState } from 'preact/hooks';
import { answer, api, ApiError, type Answer } from './api.ts';
import { ErrorMessage, Field, PageHeading, sendForm } from './ui.tsx';
import { Table } from './tables.tsx';

type Report = Answer<'/api/v1/lint', 'post'>;

/** A 400 answer is about the address, the form's only field: its message is shown there. */
const addressMessage = (err: unknown) => (err instanceof ApiError && err.status === 400 ? err.message.replace(/^Validation error: /, '') : null);

/** A report: its score, what was checked, and each finding with its line and severity. */
function LintReport({ report }: { report: Report }) {
  return (
    <section class="card" aria-labelledby="lint-result" aria-live="polite">
      <h2 id="lint-result">
        Score: <span data-testid="lint-score">{report.score}</span>/100
      </h2>
      <p class="muted">
        {report.fileUrl} · {report.links.checked} of {report.links.listed} links checked
      </p>
      {report.findings.length === 0 ? (
        <p>No findings.</p>
      ) : (
        <Table
          rows={report.findings.map((finding, index) => ({ ...finding, index }))}
          rowKey={(finding) => String(finding.index)}
          columns={[
            { header: 'Line', cell: (finding) => finding.line ?? '' },
            { header: 'Severity', cell: (finding) => finding.severity },
            { header: 'Finding', cell: (finding) => finding.message },
          ]}
        />
      )}
    </section>
  );
}

/** "Check an llms.txt": POST /lint on a URL, the score and each finding with its line. */
export function LintPage() {
  const [url, setUrl] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<Report | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setFieldError(undefined);
    if (!url.trim()) {
      setFieldError("Enter the address of an llms.txt, or of any page of the site.");
      return document.getElementById('lint-url')?.focus();
    }
    const request = async () => setReport(await answer(api.POST('/api/v1/lint', { body: { url: url.trim() } })));
    const showFieldError = (message: string) => {
      setFieldError(message);
      document.getElementById('lint-url')?.focus();
    };
    await sendForm(request, { field: addressMessage, setFieldError: showFieldError, setError, setBusy });
  };

  return (
    <>
      <PageHeading>Check an llms.txt</PageHeading>
      <section class="card" aria-labelledby="lint-title">
        <h2 id="lint-title">Any llms.txt, scored 0-100</h2>
        <p class="muted">Its structure against llmstxt.org, each link (up to 200), the site's key pages it lacks and the pages changed after it. Checking is free.</p>
        <form onSubmit={submit} noValidate>
          <Field id="lint-url" label="llms.txt or page URL" type="url" value={url} onInput={setUrl} error={fieldError} required hint="For example https://docs.example.com/llms.txt" />
          <button type="submit" disabled={busy}>
            {busy ? 'Checking…' : 'Check'}
          </button>
        </form>
        <ErrorMessage error={error} />
      </section>
      {report ? <LintReport report={report} /> : null}
    </>
  );
}
