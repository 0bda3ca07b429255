// Google's robots.txt conformance cases (github.com/google/robotstxt-spec-test, the
// `correctness` set), each expectation run through our robots module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedCorpus } from '../testing/shared-corpora.ts';
import { parseRobotsTxt } from './robots.ts';

const CORPUS = sharedCorpus('robotstxt-ctc');

/**
 * Measured: 144 of 146. A change that passes fewer fails this test.
 * The two that fail (non-ascii-paths.textproto) give the URL with a raw `ツ` and expect it
 * NOT to match `Allow: /foo/bar/ツ`, because Google's matcher leaves the URL as the caller
 * wrote it ("it's up to the caller to percent encode a URL"). robots-parser always runs the
 * URL through the WHATWG parser, which percent-encodes it, so the rule matches. Our crawler
 * only ever passes already-encoded URLs, where both behave the same; emulating the raw
 * comparison would mean bypassing robots-parser's URL handling altogether.
 */
const REQUIRED_PASSES = 144;

type Value = Buffer | string | Message | Value[];
interface Message {
  [field: string]: Value;
}

/** A small reader for the protobuf text format as these files use it. */
function parseTextproto(bytes: Buffer): Message {
  const src = bytes.toString('latin1'); // one char per byte, so string literals stay bytes
  let i = 0;
  const skip = () => {
    for (;;) {
      while (i < src.length && /\s/.test(src[i])) i++;
      if (src[i] !== '#') return;
      while (i < src.length && src[i] !== '\n') i++;
    }
  };
  const readString = (): Buffer => {
    const out: number[] = [];
    i++; // opening quote
    while (src[i] !== '"') {
      if (src[i] !== '\\') {
        out.push(src.charCodeAt(i++));
        continue;
      }
      const c = src[i + 1];
      i += 2;
      const simple: Record<string, number> = { n: 10, r: 13, t: 9, '"': 34, "'": 39, '\\': 92 };
      if (c in simple) out.push(simple[c]);
      else if (c === 'x') {
        const hex = /^[0-9a-fA-F]{1,2}/.exec(src.slice(i, i + 2))![0];
        out.push(parseInt(hex, 16));
        i += hex.length;
      } else if (/[0-7]/.test(c)) {
        const oct = /^[0-7]{0,2}/.exec(src.slice(i, i + 2))![0];
        out.push(parseInt(c + oct, 8));
        i += oct.length;
      } else throw new Error(`unknown escape \\${c}`);
    }
    i++;
    return Buffer.from(out);
  };
  const readValue = (): Value => {
    skip();
    if (src[i] === '"') {
      const parts: Buffer[] = [];
      while (src[i] === '"') {
        parts.push(readString());
        skip();
      }
      return Buffer.concat(parts);
    }
    if (src[i] === '{') {
      i++;
      const message = readFields('}');
      i++;
      return message;
    }
    if (src[i] === '[') {
      i++;
      const list: Value[] = [];
      for (skip(); src[i] !== ']'; skip()) {
        list.push(readValue());
        skip();
        if (src[i] === ',') i++;
      }
      i++;
      return list;
    }
    const word = /^[\w.-]+/.exec(src.slice(i))![0];
    i += word.length;
    return word;
  };
  const readFields = (end: string | null): Message => {
    const message: Message = {};
    for (skip(); i < src.length && src[i] !== end; skip()) {
      const name = /^\w+/.exec(src.slice(i))![0];
      i += name.length;
      skip();
      if (src[i] === ':') i++;
      message[name] = readValue();
    }
    return message;
  };
  return readFields(null);
}

interface Case {
  file: string;
  robotstxt: Buffer;
  url: string;
  userAgent: string;
  allowed: boolean;
}

function loadCases(): Case[] {
  const cases: Case[] = [];
  for (const file of readdirSync(CORPUS.path).filter((f) => f.endsWith('.textproto')).sort()) {
    const spec = parseTextproto(readFileSync(join(CORPUS.path, file)));
    for (const t of spec.tests as Message[]) {
      for (const e of t.test_expectations as Message[]) {
        cases.push({
          file,
          robotstxt: t.robotstxt as Buffer,
          url: (e.testurl as Buffer).toString('utf8'),
          userAgent: (e.useragent as Buffer).toString('utf8'),
          allowed: e.expected_outcome === 'ALLOWED',
        });
      }
    }
  }
  return cases;
}

test("Google's robots.txt conformance cases pass through our robots module", { skip: CORPUS.skip }, () => {
  const cases = loadCases();
  assert.ok(cases.length > 100, `read ${cases.length} cases`);
  const failures = cases.filter((c) => parseRobotsTxt(c.robotstxt, { userAgent: c.userAgent }).isAllowed(c.url) !== c.allowed);
  console.log(`robots conformance: ${cases.length - failures.length}/${cases.length} passed`);
  for (const f of failures) {
    console.log(`  FAIL ${f.file}: ${JSON.stringify(f.robotstxt.toString('latin1'))} ${f.userAgent} ${f.url} expected ${f.allowed ? 'ALLOWED' : 'DISALLOWED'}`);
  }
  assert.ok(cases.length - failures.length >= REQUIRED_PASSES, `${failures.length} cases fail`);
});
