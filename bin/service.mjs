#!/usr/bin/env node
// The service's entry point (npm start, npm run worker, the Docker image): src/main.ts, with Node's
// compile cache on. Node strips TypeScript with a WebAssembly compiler that every isolate (the event
// loop, the generation threads, and the page threads when they run the modules rather than their
// bundle, see page-worker-bundle.ts) starts on its first .ts file and keeps: about 17 MB of memory
// each. A file found in the cache (stripped and compiled by an earlier start) needs no compiler.
import module from 'node:module';

const cache = module.enableCompileCache();
// Worker threads turn the cache on from the environment they start with. (Already enabled means
// NODE_COMPILE_CACHE was set, and they inherit it as it is.)
if (cache.status === module.constants.compileCacheStatus.ENABLED) process.env.NODE_COMPILE_CACHE = cache.directory;
await import('../src/main.ts');
