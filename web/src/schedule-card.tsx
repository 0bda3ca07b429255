/**
 * A site's scheduled refresh: a preset (hourly, daily, weekly) or a cron expression of the
 * user's, stopped with "Never"; what its last check did and what the last generation changed.
 */
import { useEffect, useState } from 'preact/hooks';
import { answer, api, formatDate, type Answer } from './api.ts';
import { ErrorMessage, Notice, useAction } from './ui.tsx';

type Site = Answer<'/api/v1/sites/{siteId}', 'get'>;

const PRESETS: Array<[string, string]> = [
  ['hourly', 'Hourly'],
  ['daily', 'Daily'],
  ['weekly', 'Weekly'],
];
const CUSTOM = 'custom';

/** "pages added 1, removed 0, retitled 1" */
function changeSummary({ added, removed, retitled }: NonNullable<Site['lastChange']>): string {
  return `pages added ${added.length}, removed ${removed.length}, retitled ${retitled.length}`;
}

function CronForm({ initial, busy, onSave }: { initial: string; busy: boolean; onSave: (cron: string) => void }) {
  const [cron, setCron] = useState(initial);
  return (
    <form
      class="row"
      onSubmit={(e) => {
        e.preventDefault();
        onSave(cron.trim());
      }}
    >
      <div class="field">
        <label for="schedule-cron">Cron expression (UTC)</label>
        <input id="schedule-cron" type="text" value={cron} placeholder="0 6 * * 1-5" aria-describedby="schedule-cron-hint" onInput={(e) => setCron((e.target as HTMLInputElement).value)} />
        <p class="hint" id="schedule-cron-hint">
          Minute, hour, day of month, month, day of week; for example 0 6 * * 1-5 is 06:00 UTC on weekdays.
        </p>
      </div>
      <button type="submit" disabled={busy || !cron.trim()}>
        Save schedule
      </button>
    </form>
  );
}

/** The frequency select, with the cron form (starting from the schedule's own expression, `cron`) when "Custom" is chosen. */
function FrequencyChoice({ choice, cron, busy, onChoose, onSave }: { choice: string; cron: string; busy: boolean; onChoose: (value: string) => void; onSave: (cron: string) => void }) {
  return (
    <>
      <div class="field inline">
        <label for="schedule-frequency">Refresh</label>
        <select id="schedule-frequency" value={choice} disabled={busy} onChange={(e) => onChoose((e.target as HTMLSelectElement).value)}>
          <option value="">Never</option>
          {PRESETS.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
          <option value={CUSTOM}>Custom (cron)</option>
        </select>
      </div>
      {choice === CUSTOM ? <CronForm initial={cron} busy={busy} onSave={onSave} /> : null}
    </>
  );
}

/** What the schedule is doing (paused, next and last check) and what the last generation changed. */
function ScheduleState({ site, custom }: { site: Site; custom: boolean }) {
  const schedule = site.schedule;
  return (
    <>
      {schedule?.status === 'paused' ? <Notice kind="warning">Paused: {schedule.pausedReason} Choose a frequency again to resume.</Notice> : null}
      {schedule ? (
        <p data-testid="schedule-state">
          {custom ? `Runs on ${schedule.frequency} (UTC). ` : ''}
          {schedule.nextRunAt ? `Next check ${formatDate(schedule.nextRunAt)}.` : ''}
          {schedule.lastCheckedAt ? ` Last checked ${formatDate(schedule.lastCheckedAt)}: ${schedule.lastOutcome}.` : ' Not checked yet.'}
        </p>
      ) : null}
      {site.lastChange ? (
        <p>
          Last generation: {changeSummary(site.lastChange)}.{' '}
          <a href={`${site.fileUrl}?previous=true`} target="_blank" rel="noopener">
            Previous llms.txt
          </a>
        </p>
      ) : null}
    </>
  );
}

export function ScheduleCard({ site, onChange }: { site: Site; onChange: () => void }) {
  const { busy, error, act } = useAction();
  const schedule = site.schedule;
  const preset = schedule ? (PRESETS.some(([value]) => value === schedule.frequency) ? schedule.frequency : CUSTOM) : '';
  const [choice, setChoice] = useState(preset);
  useEffect(() => setChoice(preset), [preset]);
  const params = { params: { path: { siteId: site.id } } };

  const save = (frequency: string) =>
    act(async () => {
      if (frequency) await answer(api.PUT('/api/v1/sites/{siteId}/schedule', { ...params, body: { frequency } }));
      else await answer(api.DELETE('/api/v1/sites/{siteId}/schedule', params));
      onChange();
    });
  const choose = (value: string) => {
    setChoice(value);
    if (value !== CUSTOM) void save(value);
  };

  return (
    <section class="card" aria-labelledby="schedule-title">
      <h2 id="schedule-title">Scheduled refresh</h2>
      <p class="muted">The site is checked on schedule and regenerated, at the usual cost, only when its pages changed.</p>
      {site.lastGenerationOptions ? (
        <FrequencyChoice choice={choice} cron={preset === CUSTOM ? schedule!.frequency : ''} busy={busy} onChoose={choose} onSave={save} />
      ) : (
        <Notice>A site can be scheduled once it has a completed generation.</Notice>
      )}
      <ScheduleState site={site} custom={preset === CUSTOM} />
      <ErrorMessage error={error} />
    </section>
  );
}
