import { Type } from 'typebox';
import type { DatabaseHandle } from '../db/database.ts';
import { errors } from '../errors.ts';
import type { RoutePlugin } from '../http/types.ts';

export const healthRoutes: RoutePlugin<{ database: DatabaseHandle }> = async (app, { database }) => {
  app.get(
    '/health',
    { schema: { tags: ['Health'], summary: 'The process is up', response: { 200: Type.Object({ status: Type.Literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/ready',
    {
      schema: {
        tags: ['Health'],
        summary: 'The database answers',
        response: { 200: Type.Object({ status: Type.Literal('ready'), database: Type.String() }), 503: Type.Ref('ErrorBody') },
      },
    },
    async (request) => {
      try {
        await database.sql.executeSql('select 1');
        return { status: 'ready' as const, database: database.kind };
      } catch (error) {
        request.log.warn({ err: error }, 'database unreachable');
        throw errors.databaseUnreachable();
      }
    },
  );
};
