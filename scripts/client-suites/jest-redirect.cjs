/* global process, URL, Request */
// Jest setup file of run.mjs: the suites hard-code the Supabase CLI's API address
// (http://localhost:54321); their requests go to the local-supabase the runner started instead, on a
// free port. Nothing else changes: same paths, headers and bodies.
const target = process.env.CLIENT_SUITE_API_URL;
const CLI_ORIGIN = 'http://localhost:54321';
const originalFetch = globalThis.fetch;

globalThis.fetch = (input, init) => {
  if (typeof input === 'string' && input.startsWith(CLI_ORIGIN))
    return originalFetch(target + input.slice(CLI_ORIGIN.length), init);
  if (input instanceof URL && input.origin === CLI_ORIGIN)
    return originalFetch(target + input.href.slice(CLI_ORIGIN.length), init);
  if (input instanceof Request && input.url.startsWith(CLI_ORIGIN)) {
    return originalFetch(new Request(target + input.url.slice(CLI_ORIGIN.length), input), init);
  }
  return originalFetch(input, init);
};
