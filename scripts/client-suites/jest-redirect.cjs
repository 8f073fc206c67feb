/* global process, URL, Request, expect, require */
// Jest setup file of run.mjs: the suites hard-code the Supabase CLI's API address
// (http://localhost:54321 or http://127.0.0.1:54321); their requests go to the local-supabase the
// runner started instead, on a free port. Nothing else changes: same paths, headers and bodies.
// With CLIENT_SUITE_HITS set, each test that sent a request is noted there (path, tab, full name):
// the runner counts those as the server tests of files that also hold mocked ones.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS setup file (jest loads it as such)
const { appendFileSync } = require('node:fs');
const target = process.env.CLIENT_SUITE_API_URL;
const hits = process.env.CLIENT_SUITE_HITS;
const CLI_ORIGINS = ['http://localhost:54321', 'http://127.0.0.1:54321'];
const originalFetch = globalThis.fetch;

/** The address on the local-supabase of a CLI URL, or null. */
function redirected(url) {
  const origin = CLI_ORIGINS.find((o) => url === o || url.startsWith(o + '/') || url.startsWith(o + '?'));
  if (!origin) return null;
  if (hits) {
    const state = typeof expect === 'function' ? expect.getState() : {};
    if (state.testPath && state.currentTestName) appendFileSync(hits, `${state.testPath}\t${state.currentTestName}\n`);
  }
  return target + url.slice(origin.length);
}

globalThis.fetch = (input, init) => {
  const url =
    typeof input === 'string' ? input : input instanceof URL ? input.href : input instanceof Request ? input.url : null;
  const to = url === null ? null : redirected(url);
  if (to === null) return originalFetch(input, init);
  return originalFetch(input instanceof Request ? new Request(to, input) : to, init);
};
