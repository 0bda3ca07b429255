import { setMaxListeners } from 'node:events';

export interface TimeBudget {
  /** Aborted by the caller's signal or when the time is up. */
  signal: AbortSignal;
  /** Stops the timer and the listening to the caller's signal. */
  release(): void;
}

/** A time limit on work the caller may also cancel: one signal for both. */
export function timeBudget(timeoutMs: number, callerSignal: AbortSignal | undefined): TimeBudget {
  const budget = new AbortController();
  setMaxListeners(0, budget.signal); // one listener per request in flight
  const timer = setTimeout(() => budget.abort(), timeoutMs);
  const onCallerAbort = () => budget.abort();
  if (callerSignal?.aborted) budget.abort();
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: budget.signal,
    release: () => {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
}
