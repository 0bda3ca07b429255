/**
 * A generation job followed to its end: what it is doing (its phase and counts when the service
 * reports them, else its percentage), its start message, a Cancel button while it runs, its
 * reason when it failed, and its files when it is done.
 */
import { useEffect, useState } from 'preact/hooks';
import { answer, api, type Answer } from './api.ts';
import { ErrorMessage, usePolling } from './ui.tsx';

export type StartedJob = Answer<'/api/v1/generate', 'post'>;
type Job = Answer<'/api/v1/generate/{jobId}', 'get'>;
/** The fields the panel shows, whether from the start answer or a lookup. */
type Shown = Pick<Job, 'id' | 'siteId' | 'status' | 'progress' | 'fileUrl' | 'fullTextUrl' | 'error'> & Partial<Pick<Job, 'message' | 'phase' | 'pagesDone' | 'pagesTotal'>>;

const finished = (status: string) => status === 'completed' || status === 'failed';

function fromStart(started: StartedJob): Shown {
  const { jobId: id, siteId, status, progress, fileUrl, fullTextUrl, message } = started;
  return { id, siteId, status, progress, fileUrl, fullTextUrl, message, error: null };
}

/** What a phase says, with its counts: the phases the service reports (an unknown one by its name). */
const PHASES: Record<string, (done: string, total: string) => string> = {
  discovering: (done, total) => `Finding pages: ${done} found (at most ${total})`,
  fetching: (done, total) => `Fetching ${done} of ${total} pages`,
  describing: (done, total) => `Describing ${done} of ${total} pages`,
  writing: () => 'Writing the files',
};

/** "Fetching 120 of 400 pages" while the service reports a phase, else "Working: 40%"; "Done: 100%"; a failure says why, with no percentage. */
function statusLine(job: Shown): string {
  if (job.status === 'completed') return 'Done: 100%';
  if (job.status === 'failed') return `Failed: ${job.error ?? 'the generation did not finish.'}`;
  if (!job.phase || job.pagesDone == null || job.pagesTotal == null) return `Working: ${job.progress}%`;
  const [done, total] = [job.pagesDone.toLocaleString('en'), job.pagesTotal.toLocaleString('en')];
  return (PHASES[job.phase] ?? ((d, t) => `${job.phase} ${d} of ${t}`))(done, total);
}

/** The started job followed by polling until it finishes, and its cancellation; `onFinished` once it has. */
function useJob(started: StartedJob, onFinished: () => void) {
  const [job, setJob] = useState<Shown>(() => fromStart(started));
  const [error, setError] = useState<unknown>(null);
  const [polls, setPolls] = useState(0);
  const [canceling, setCanceling] = useState(false);
  const running = !finished(job.status);
  const path = { params: { path: { jobId: started.jobId } } };

  useEffect(() => {
    setJob(fromStart(started));
    setError(null);
  }, [started.jobId]);

  const show = (next: Shown) => {
    // The start answer's message says what the start decided (a cache hit, the method that runs): kept.
    setJob((previous) => ({ ...next, message: next.message ?? previous.message }));
    if (finished(next.status)) onFinished();
  };
  const refresh = async () => {
    try {
      show(await answer(api.GET('/api/v1/generate/{jobId}', path)));
    } catch (err) {
      setError(err);
    } finally {
      setPolls((n) => n + 1);
    }
  };
  usePolling(running && !error, refresh, polls, 500);

  const cancel = async () => {
    setCanceling(true);
    try {
      show((await answer(api.DELETE('/api/v1/generate/{jobId}', path))).job);
    } catch (err) {
      setError(err);
    } finally {
      setCanceling(false);
    }
  };
  return { job, error, running, canceling, cancel };
}

/** A completed job's files and its site. */
function JobFiles({ fileUrl, job }: { fileUrl: string; job: Shown }) {
  return (
    <p class="row">
      <a href={fileUrl} target="_blank" rel="noopener">
        Open llms.txt
      </a>
      {job.fullTextUrl ? (
        <a href={job.fullTextUrl} target="_blank" rel="noopener">
          Open llms-full.txt
        </a>
      ) : null}
      <a href={`/sites/${job.siteId}`}>View site</a>
    </p>
  );
}

export function JobPanel({ started, onFinished }: { started: StartedJob; onFinished: () => void }) {
  const { job, error, running, canceling, cancel } = useJob(started, onFinished);
  return (
    <div class="job" aria-live="polite">
      {job.message ? <p data-testid="job-message">{job.message}</p> : null}
      {job.status === 'failed' ? null : (
        <>
          <label for={`progress-${job.id}`}>Progress</label>
          <progress id={`progress-${job.id}`} max={100} value={job.progress} />
        </>
      )}
      <p data-testid="job-status" class={job.status === 'failed' ? 'error' : undefined}>
        {statusLine(job)}
      </p>
      {running ? (
        <button type="button" class="secondary" onClick={cancel} disabled={canceling}>
          {canceling ? 'Canceling…' : 'Cancel job'}
        </button>
      ) : null}
      <ErrorMessage error={error} />
      {job.status === 'completed' && job.fileUrl ? <JobFiles fileUrl={job.fileUrl} job={job} /> : null}
    </div>
  );
}
