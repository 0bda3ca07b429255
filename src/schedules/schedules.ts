/**
 * A site's scheduled refresh: `hourly`, `daily`, `weekly` or a cron expression (UTC, at most hourly). The
 * schedule keeps its own status (`active`, or `paused` with the reason, e.g. credits ran out):
 * the site keeps the contract's four statuses. Setting the schedule again resumes it.
 */
import { eq, inArray } from '../db/orm.ts';
import { CronExpressionParser, type CronFieldCollection } from 'cron-parser';
import { Type } from 'typebox';
import type { Clock } from '../clock.ts';
import { IsoDate, Nullable } from '../shapes.ts';
import type { Database } from '../db/database.ts';
import { siteSchedules } from '../db/schema.ts';
import { errors, scheduleMessages } from '../errors.ts';
import { getOwnedSite } from '../sites/sites.ts';

export type SiteSchedule = typeof siteSchedules.$inferSelect;

const HOUR_MS = 3_600_000;
/** The words a schedule may use instead of cron: every so long after it was set (or last ran), spreading the runs over the hour. */
const PRESETS: Record<string, number> = { hourly: HOUR_MS, daily: 24 * HOUR_MS, weekly: 7 * 24 * HOUR_MS };
export const FREQUENCY_WORDS = Object.keys(PRESETS);

/** A frequency as stored: a preset word in lower case ("Daily" is `daily`), an expression as written. */
export function normalizeFrequency(frequency: string): string {
  const trimmed = frequency.trim();
  return trimmed.toLowerCase() in PRESETS ? trimmed.toLowerCase() : trimmed;
}

/**
 * Why `frequency` cannot be used, or null. Decided from the parsed fields alone, never by walking
 * future runs: a rare expression (the fifth Monday of February) would cost seconds to walk.
 */
export function invalidFrequency(frequency: string): string | null {
  if (frequency in PRESETS) return null;
  let fields: CronFieldCollection;
  try {
    fields = CronExpressionParser.parse(frequency, { tz: 'UTC' }).fields;
  } catch (error) {
    return notACronExpression(error);
  }
  // Runs on one day fall at each listed hour, minute and second. With one minute and one second
  // they are whole hours apart; a second minute or second puts two runs in the same hour.
  const tooOften = fields.minute.values.length > 1 || fields.second.values.length > 1;
  return tooOften ? scheduleMessages.tooOften : null;
}

function notACronExpression(error: unknown): string {
  return scheduleMessages.badFrequency(FREQUENCY_WORDS, error instanceof Error ? error.message : String(error));
}

/** The first run after `from`. */
export function nextRunAfter(frequency: string, from: Date): Date {
  const interval = PRESETS[frequency];
  if (interval) return new Date(from.getTime() + interval);
  return CronExpressionParser.parse(frequency, { tz: 'UTC', currentDate: from }).next().toDate();
}

export async function setSchedule(deps: { db: Database; clock: Clock }, accountId: string, siteId: string, asked: string): Promise<SiteSchedule> {
  // The site first: a caller with no site to schedule costs one lookup, whatever the expression.
  const site = await getOwnedSite(deps.db, accountId, siteId);
  const frequency = normalizeFrequency(asked);
  const reason = invalidFrequency(frequency);
  if (reason) throw errors.validation(reason);
  if (!site.lastGenerationOptions) throw errors.scheduleNeedsGeneration();
  const now = deps.clock.now();
  const schedule = { frequency, status: 'active', pausedReason: null, nextRunAt: firstRunAfter(frequency, now), updatedAt: now };
  const [saved] = await deps.db
    .insert(siteSchedules)
    .values({ siteId, ...schedule, createdAt: now })
    .onConflictDoUpdate({ target: siteSchedules.siteId, set: schedule })
    .returning();
  return saved;
}

/** nextRunAfter for an expression being set: one with no run at all is refused like any bad one. */
function firstRunAfter(frequency: string, from: Date): Date {
  try {
    return nextRunAfter(frequency, from);
  } catch (error) {
    throw errors.validation(notACronExpression(error));
  }
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
    lastOutcome: Nullable(Type.String({ description: 'unchanged (no charge), regenerated, paused, skipped: … (a generation was under way), timed out: … (no charge) or failed: …' })),
    lastJobId: Nullable(Type.String()),
  }),
  Type.Null(),
]);

export function scheduleView(schedule: SiteSchedule | undefined) {
  if (!schedule) return null;
  const { frequency, status, pausedReason, nextRunAt, lastCheckedAt, lastOutcome, lastJobId } = schedule;
  return { frequency, status, pausedReason, nextRunAt: status === 'active' ? nextRunAt : null, lastCheckedAt, lastOutcome, lastJobId };
}
