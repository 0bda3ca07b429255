/**
 * What a user does to a site as a whole: regenerate it now, with the options of its last
 * generation (its price shown first; a fresh crawl, not the cached answer), or delete it.
 */
import { useState } from 'preact/hooks';
import { answer, api, type Answer } from './api.ts';
import { plural, useEstimate } from './cost-estimate.tsx';
import type { GenerateBody, GenerationMethod } from './service-options.ts';
import { JobPanel, type StartedJob } from './job-panel.tsx';
import { navigate } from './router.ts';
import { ErrorMessage, useAction } from './ui.tsx';

type Site = Answer<'/api/v1/sites/{siteId}', 'get'>;
type Options = NonNullable<GenerateBody['options']>;

/** The last generation's options, asked again without the cache (a regeneration is meant to be fresh). */
function regenerateBody(site: Site): GenerateBody | null {
  const last = site.lastGenerationOptions;
  if (!last) return null;
  const { maxUrls, showFullText, includeModificationDate, generationMethod, includePaths, excludePaths, maxTokens } = last;
  const options: Options = { maxUrls, showFullText, includeModificationDate, includePaths, excludePaths, maxTokens, cacheAge: 0, generationMethod: generationMethod as GenerationMethod };
  return { url: site.url, options };
}

export function SiteActions({ site, onChange }: { site: Site; onChange: () => void }) {
  const { busy, error, act } = useAction();
  const [job, setJob] = useState<StartedJob | null>(null);
  const body = regenerateBody(site);
  const { estimate } = useEstimate(body);

  const regenerate = () =>
    act(async () => {
      // The last job's panel goes first: its result is not the new job's.
      setJob(null);
      setJob(await answer(api.POST('/api/v1/generate', { body: body! })));
      onChange();
    });
  const remove = () => {
    if (!window.confirm(`Delete ${site.url}, its files, mapped URLs and jobs? This cannot be undone.`)) return;
    void act(async () => {
      await answer(api.DELETE('/api/v1/sites/{siteId}', { params: { path: { siteId: site.id } } }));
      navigate('/sites?siteDeleted=1');
    });
  };

  return (
    <section class="card" aria-labelledby="actions-title">
      <h2 id="actions-title">Actions</h2>
      <p class="row">
        {body ? (
          <button type="button" onClick={regenerate} disabled={busy}>
            {estimate ? `Regenerate now (${plural(estimate.credits, 'credit')})` : 'Regenerate now'}
          </button>
        ) : null}
        <button type="button" class="danger" onClick={remove} disabled={busy}>
          Delete site
        </button>
      </p>
      {body ? <p class="hint">Regenerating crawls the site again with the options of its last generation.</p> : null}
      <ErrorMessage error={error} />
      {job ? <JobPanel started={job} onFinished={onChange} /> : null}
    </section>
  );
}
