import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DrizzleQueryError } from '../db/orm.ts';
import { jobMessages } from '../errors.ts';
import { failureMessage } from './workers.ts';

test("a failed job's error says the job's own reason, never a database statement", () => {
  assert.equal(failureMessage(new Error(jobMessages.noPages('https://example.com/'))), 'No pages could be read from https://example.com/');
  assert.equal(failureMessage(new Error('x'.repeat(600))).length, 500);
  const statement = new DrizzleQueryError('insert into "mapped_urls" ("id", "url") values ($1, $2)', ['9f1c', 'a page the site served']);
  assert.match(statement.message, /^Failed query: insert into/);
  assert.equal(failureMessage(statement), 'The job failed unexpectedly');
  assert.equal(failureMessage('a thrown string'), 'The job failed unexpectedly');
});
