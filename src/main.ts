/**
 * The service's entry point. `serve` (default): the API and its workers; `serve --no-worker`:
 * the API alone; `worker`: workers alone. Any number of each can share one PostgreSQL.
 */
import { buildApp } from './app.ts';
import { systemClock } from './clock.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';

async function main(argv: string[]): Promise<void> {
  const [role = 'serve'] = argv;
  if (role !== 'serve' && role !== 'worker') throw new ConfigError(`unknown command "${role}": use serve or worker`);
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const app = await buildApp({ config, database, clock: systemClock }, { level: config.logLevel });
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`llms.txt service on ${config.publicUrl} (database: ${database.kind}, API reference: ${config.publicUrl}/docs)`);
}

main(process.argv.slice(2)).catch((error) => {
  if (error instanceof ConfigError) {
    console.error(`Configuration error: ${error.message}`);
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
});
