// Writes the OpenAPI document the routes produce, as the service serves it, to a file (or stdout):
// `node scripts/openapi.ts out.json`. Two dumps compared byte for byte show that a refactoring
// changed nothing a client sees.
import { writeFileSync } from 'node:fs';
import { OPENAPI_PATH } from '../src/http/paths.ts';
import { startTestService } from '../src/testing/service.ts';

const service = await startTestService('pglite', { workers: false });
try {
  const { text } = await service.request('GET', OPENAPI_PATH);
  const target = process.argv[2];
  if (target) writeFileSync(target, text);
  else process.stdout.write(text);
} finally {
  await service.close();
}
