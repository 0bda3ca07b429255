import { Type } from 'typebox';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/database.ts';
import { messages } from '../errors.ts';
import { callerOf } from '../http/authenticate.ts';
import { errorAnswers, SuccessMessage } from '../http/schemas.ts';
import { Id } from '../shapes.ts';
import type { RoutePlugin } from '../http/types.ts';
import { deleteSchedule, ScheduleView, scheduleView, setSchedule } from './schedules.ts';

const SiteParams = Type.Object({ siteId: Id });

export const scheduleRoutes: RoutePlugin<{ db: Database; clock: Clock }> = async (app, deps) => {
  app.put(
    '/sites/:siteId/schedule',
    {
      config: { auth: 'any' },
      schema: {
        tags: ['Sites'],
        summary: "Refresh the site's llms.txt on a schedule (regenerated, and charged, only when its pages changed); sets a paused schedule active again",
        params: SiteParams,
        body: Type.Object(
          { frequency: Type.String({ minLength: 1, maxLength: 100, description: '`hourly`, `daily` or `weekly` (every hour, 24 hours or 7 days after it is set), or a cron expression in UTC running at most hourly' }) },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ schedule: ScheduleView }), ...errorAnswers(403, 404, 409) },
      },
    },
    async (request) => ({ schedule: scheduleView(await setSchedule(deps, callerOf(request).accountId, request.params.siteId, request.body.frequency)) }),
  );

  app.delete(
    '/sites/:siteId/schedule',
    {
      config: { auth: 'any' },
      schema: { tags: ['Sites'], summary: "Stop the site's scheduled refresh", params: SiteParams, response: { 200: SuccessMessage, ...errorAnswers(403, 404) } },
    },
    async (request) => {
      await deleteSchedule(deps.db, callerOf(request).accountId, request.params.siteId);
      return { success: true, message: messages.scheduleDeleted };
    },
  );
};
