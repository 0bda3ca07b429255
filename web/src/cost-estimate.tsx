/**
 * The price of a generation before the click: POST /generate/estimate with the form's body, asked
 * again as the user types (after a short pause), shown with the balance it would leave. When an
 * `enhanced` request would run the built-in describer (no AI provider configured), says so.
 */
import { useEffect, useState } from 'preact/hooks';
import { answer, api, type Answer } from './api.ts';
import type { GenerateBody, GenerationMethod } from './service-options.ts';

type Estimate = Answer<'/api/v1/generate/estimate', 'post'>;

/** The API reference, whose `generationMethod` says what the AI provider setting does. */
const AI_PROVIDER_HELP = '/docs';
const PAUSE_MS = 300;

/** An estimate, with the method its request asked for (the form may have changed since). */
export interface EstimateState {
  estimate: Estimate | null;
  error: unknown;
  asked: GenerationMethod | undefined;
}

/** The estimate of `body` (null while the form cannot be sent), or the service's reason it cannot be. */
export function useEstimate(body: GenerateBody | null): EstimateState {
  const [state, setState] = useState<EstimateState>({ estimate: null, error: null, asked: undefined });
  const key = body ? JSON.stringify(body) : '';
  useEffect(() => {
    if (!body) return setState({ estimate: null, error: null, asked: undefined });
    let live = true;
    const asked = body.options?.generationMethod;
    const timer = window.setTimeout(() => {
      answer(api.POST('/api/v1/generate/estimate', { body })).then(
        (estimate) => live && setState({ estimate, error: null, asked }),
        (error) => live && setState({ estimate: null, error, asked }),
      );
    }, PAUSE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key]);
  return state;
}

/** `blocked`: what the form must fix before it can be priced (its own check, as on submit). */
export function CostLine({ estimate, error, asked, balance, blocked }: EstimateState & { balance: number | null; blocked: string | null }) {
  if (blocked) {
    return (
      <p class="hint" data-testid="cost">
        {blocked}
      </p>
    );
  }
  if (error) {
    return (
      <p class="field-error" role="status" data-testid="cost">
        {error instanceof Error ? error.message : String(error)}
      </p>
    );
  }
  if (!estimate) return <p class="hint" data-testid="cost">Pricing…</p>;
  const after = balance === null ? null : balance - estimate.credits;
  return (
    <>
      <p class="cost" role="status" data-testid="cost">
        Cost: <strong>{plural(estimate.credits, 'credit')}</strong> for up to {plural(estimate.maxUrls, 'page')} ({estimate.generationMethod})
        {estimate.renderingCredits ? `, ${estimate.renderingCredits} of them for rendering` : null}
        {after === null ? null : after >= 0 ? <> · balance after: {plural(after, 'credit')}</> : null}
      </p>
      {after !== null && after < 0 ? (
        <p class="field-error">
          You have {plural(balance!, 'credit')}: {plural(-after, 'more credit')} needed. <a href="/pricing">Buy credits</a>
        </p>
      ) : null}
      {runsWithoutAi({ estimate, error, asked }) ? (
        <p class="notice warning" data-testid="enhanced-needs-provider">
          Enhanced needs an AI provider, and this service has none configured (the <code>LLM_PROVIDER</code> setting): the job runs the built-in describer
          and is charged as simple. <a href={AI_PROVIDER_HELP} target="_blank" rel="noopener">About generationMethod in the API reference</a>
        </p>
      ) : null}
      {estimate.fromCache ? <p class="hint">A recent generation with the same options answers this at once, for no credits.</p> : null}
      <p class="hint">{estimate.refundRule}.</p>
    </>
  );
}

/** `enhanced` asked for, `simple` would run: the service has no AI provider. */
export const runsWithoutAi = ({ estimate, asked }: EstimateState) => asked === 'enhanced' && estimate?.generationMethod === 'simple';

export const plural = (n: number, word: string) => `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;
