// The entry of the PGlite thread (pglite.ts): a worker thread starts from plain JavaScript, so tsx is
// registered here to load pglite-worker.ts, as `npm run backend` loads the server.
const { register } = await import('tsx/esm/api');
register();
await import('./pglite-worker.ts');
