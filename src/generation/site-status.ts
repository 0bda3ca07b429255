import { desc, eq } from '../db/orm.ts';
import type { Transaction } from '../db/database.ts';
import { generationJobs, sites } from '../db/schema.ts';

/**
 * The one rule for a site's status: it is the status of the site's latest generation job
 * (pending, processing, completed or failed). Every transaction that changes a job's status
 * ends with this. The site row is locked first, so the job statuses read after it are those
 * committed by now: of a cancel and a worker starting at the same moment, whichever commits
 * last sets the site's status from what both did, never from a stale read.
 */
export async function followLatestJob(tx: Transaction, siteId: string, now: Date): Promise<void> {
  await tx.select({ id: sites.id }).from(sites).where(eq(sites.id, siteId)).for('update');
  const [latest] = await tx
    .select({ status: generationJobs.status })
    .from(generationJobs)
    .where(eq(generationJobs.siteId, siteId))
    .orderBy(desc(generationJobs.createdAt), desc(generationJobs.id))
    .limit(1);
  if (latest) await tx.update(sites).set({ status: latest.status, updatedAt: now }).where(eq(sites.id, siteId));
}
