/**
 * A site's scheduled refresh: `daily`, `weekly` or a cron expression (UTC, at most hourly). The
 * schedule keeps its own status (`active`, or `paused` with the reason, e.g. credits ran out):
 * the site keeps the contract's four statuses. Setting the schedule again resumes it.
 */
import { eq, inArray } from '../db/orm.ts';
import { CronExpressionParser } from 'cron-parser';
import { Type } from 'typebox';
import type { Clock } from '../clock.ts';
import { IsoDate, Nullable } from '../http/schemas.ts';
import type { Database } from '../db/database.ts';
import { siteSchedules } from '../db/schema.ts';
import { errors } from '../errors.ts';
import { getOwnedSite } from '../sites/sites.ts';

export type SiteSchedule = typeof siteSchedules.$inferSelect;

const HOUR_MS = 3_600_000;
const PRESETS: Record<string, number> = { daily: 24 * HOUR_MS, weekly: 7 * 24 * HOUR_MS };
/** Consecutive runs of a cron expression checked against the one-hour floor. */
const RUNS_CHECKED = 48;

/** Why `frequency` cannot be used, or null. */
export function invalidFrequency(frequency: string): string | null {
  if (frequency in PRESETS) return null;
  let runs: number[];
  try {
    runs = CronExpressionParser.parse(frequency, { tz: 'UTC' }).take(RUNS_CHECKED).map((date) => date.getTime());
  } catch (error) {
    return `frequency must be daily, weekly or a cron expression (${error instanceof Error ? error.message : error})`;
  }
  const tooOften = runs.some((run, i) => i > 0 && run - runs[i - 1] < HOUR_MS);
  return tooOften ? 'frequency must not run more often than once an hour' : null;
}

/** The first run after `from`. */
export function nextRunAfter(frequency: string, from: Date): Date {
  const interval = PRESETS[frequency];
  if (interval) return new Date(from.getTime() + interval);
  return CronExpressionParser.parse(frequency, { tz: 'UTC', currentDate: from }).next().toDate();
}

export async function setSchedule(deps: { db: Database; clock: Clock }, accountId: string, siteId: string, frequency: string): Promise<SiteSchedule> {
  const reason = invalidFrequency(frequency);
  if (reason) throw errors.validation(reason);
  const site = await getOwnedSite(deps.db, accountId, siteId);
  if (!site.lastGenerationOptions) throw errors.scheduleNeedsGeneration();
  const now = deps.clock.now();
  const schedule = { frequency, status: 'active', pausedReason: null, nextRunAt: nextRunAfter(frequency, now), updatedAt: now };
  const [saved] = await deps.db
    .insert(siteSchedules)
    .values({ siteId, ...schedule, createdAt: now })
    .onConflictDoUpdate({ target: siteSchedules.siteId, set: schedule })
    .returning();
  return saved;
}

export async function deleteSchedule(db: Database, accountId: string, siteId: string): Promise<void> {
  await getOwnedSite(db, accountId, siteId);
  const deleted = await db.delete(siteSchedules).where(eq(siteSchedules.siteId, siteId)).returning({ siteId: siteSchedules.siteId });
  if (deleted.length === 0) throw errors.scheduleNotFound();
}

export async function schedulesOf(db: Database, siteIds: string[]): Promise<Map<string, SiteSchedule>> {
  if (siteIds.length === 0) return new Map();
  const rows = await db.select().from(siteSchedules).where(inArray(siteSchedules.siteId, siteIds));
  return new Map(rows.map((row) => [row.siteId, row]));
}

export const ScheduleView = Type.Union([
  Type.Object({
    frequency: Type.String(),
    status: Type.String({ description: 'active, or paused (see pausedReason): set the schedule again to resume' }),
    pausedReason: Nullable(Type.String()),
    nextRunAt: Nullable(IsoDate),
    lastCheckedAt: Nullable(IsoDate),
    lastOutcome: Nullable(Type.String({ description: 'unchanged (no charge), regenerated, paused, skipped: … (a generation was under way) or failed: …' })),
    lastJobId: Nullable(Type.String()),
  }),
  Type.Null(),
]);

export function scheduleView(schedule: SiteSchedule | undefined) {
  if (!schedule) return null;
  const { frequency, status, pausedReason, nextRunAt, lastCheckedAt, lastOutcome, lastJobId } = schedule;
  return { frequency, status, pausedReason, nextRunAt: status === 'active' ? nextRunAt : null, lastCheckedAt, lastOutcome, lastJobId };
}
