// Helpers of the schedule tests: waiting for the scheduler, which runs on its own.
import assert from 'node:assert/strict';
import type { TestService } from '../../testing/service.ts';

export async function eventually<T>(check: () => Promise<T | false | null | undefined>, what: string): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    assert.ok(Date.now() - started < 20_000, `timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The site's schedule as its owner reads it. */
export async function scheduleOf(service: TestService, token: string, siteId: string) {
  return (await service.request('GET', `/api/v1/sites/${siteId}`, { token })).body.schedule;
}

/** Waits until the schedule was checked at the clock's present time, and answers it. */
export function checkedNow(service: TestService, token: string, siteId: string) {
  return eventually(async () => {
    const schedule = await scheduleOf(service, token, siteId);
    return schedule.lastCheckedAt && new Date(schedule.lastCheckedAt).getTime() === service.clock.now().getTime() && schedule;
  }, 'the scheduled check');
}

/** Moves the clock past the next run and waits until the schedule was checked again. */
export async function nextCheck(service: TestService, token: string, siteId: string, after: number) {
  service.clock.advance(after);
  return checkedNow(service, token, siteId);
}
