/**
 * The service's entry point. `serve` (default): the API and its workers; `serve --no-worker`:
 * the API alone; `worker`: workers alone. Any number of each can share one PostgreSQL.
 */
import pino from 'pino';
import { buildApp } from './app.ts';
import { systemClock } from './clock.ts';
import { loadConfig, startupWarnings } from './config.ts';
import { ConfigError } from './config/env-values.ts';
import { openDatabase } from './db/database.ts';
import { startJobRuntime } from './job-runtime.ts';
import { serveMetricsPort } from './metrics/routes.ts';

function onSignals(stop: () => Promise<void>): void {
  const handler = async () => {
    await stop();
    process.exit(0);
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
}

async function main(argv: string[]): Promise<void> {
  const [role = 'serve', ...flags] = argv;
  if (role !== 'serve' && role !== 'worker') throw new ConfigError(`unknown command "${role}": use serve or worker`);
  const config = loadConfig();
  const runWorkers = role === 'worker' || !flags.includes('--no-worker');
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const deps = { config, database, clock: systemClock };

  if (role === 'worker') {
    const log = pino({ level: config.logLevel });
    for (const warning of startupWarnings(config)) log.warn(warning);
    const jobs = await startJobRuntime(deps, log, { workers: true, warmUp: true });
    const stopMetrics = config.metrics.port === null ? async () => {} : await serveMetricsPort(database.db, config.metrics.port, config.host);
    onSignals(async () => {
      await stopMetrics();
      await jobs.stop();
      await database.close();
    });
    log.info(`worker running (database: ${database.kind}, Node ${process.version})`);
    return;
  }

  const app = await buildApp({ ...deps, runWorkers, warmUp: true }, { level: config.logLevel });
  for (const warning of startupWarnings(config)) app.log.warn(warning);
  onSignals(async () => {
    await app.close();
    await database.close();
  });
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`llms.txt service on ${config.publicUrl} (database: ${database.kind}, Node ${process.version}, API reference: ${config.publicUrl}/docs)`);
}

main(process.argv.slice(2)).catch((error) => {
  if (error instanceof ConfigError) {
    console.error(`Configuration error: ${error.message}`);
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
});
