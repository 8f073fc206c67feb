// Issue 38: `npm start` never reloads the student's page by itself. After `npm run db:reset` the first
// edge-function call fills Deno's cache inside .local-supabase/ (npm packages, some with a
// tsconfig.json); the Vite dev server watched that folder, logged "changed tsconfig file detected …
// forcing full-reload" and reloaded every open page: a student's "Aula marcada como concluída!" toast
// and a buyer's click on "Pagar" were lost. Here the SPA's own dev server (vite.config.ts) serves a page
// whose HMR socket is open, while a local-supabase with an empty data folder inside the project, as
// after db:reset, runs an edge function for the first time: no full-reload may reach the page.
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '../../../scripts/free-port.mjs';
import { useBackend } from '../harness.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
// Where `npm start` keeps its data, in a folder of this test's own (db:reset removes .local-supabase/).
const DATA_DIR = path.join(ROOT, '.local-supabase', `dev-reload-${randomBytes(4).toString('hex')}`);

let vite: ViteDevServer;
let socket: WebSocket;
const messages: { type: string; path?: string }[] = [];
const seen: string[] = [];
let lastEventAt = Date.now();

beforeAll(async () => {
  const port = await freePort();
  vite = await createServer({
    root: ROOT,
    configFile: path.join(ROOT, 'vite.config.ts'),
    server: { host: '127.0.0.1', port, strictPort: true },
    logLevel: 'silent',
    clearScreen: false,
  });
  await vite.listen();
  vite.watcher.on('all', (_event, file) => {
    seen.push(file);
    lastEventAt = Date.now();
  });
  // The page, as a browser opens it: its HTML, then the HMR socket of Vite's client.
  expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
  socket = new WebSocket(`ws://127.0.0.1:${port}/?token=${vite.config.webSocketToken}`, 'vite-hmr');
  socket.addEventListener('message', (e) => messages.push(JSON.parse(String(e.data))));
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve());
    socket.addEventListener('error', () => reject(new Error('the HMR socket did not open')));
  });
}, 120_000);
afterAll(async () => {
  socket?.close();
  await vite?.close();
  rmSync(DATA_DIR, { recursive: true, force: true }); // after the backend stops (after hooks run last-registered first)
});

// Started once the page listens, so its writes at start are seen too.
const backend = useBackend({ dataDir: DATA_DIR });

it('the first edge-function call after db:reset reloads no page of the dev server', async () => {
  expect(existsSync(path.join(DATA_DIR, 'deno'))).toBe(false); // Deno's cache is empty, as after db:reset
  // student-webhook answers 401 without its secret, once Deno has fetched and cached its imports.
  const res = await fetch(`${backend.url}/functions/v1/student-webhook`, { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } });
  expect(res.status).toBe(401);
  expect(existsSync(path.join(DATA_DIR, 'deno', 'npm'))).toBe(true); // the cache was filled inside the project

  // Until the watcher has been quiet for a second: the folders Deno made are scanned after their parent's event.
  while (Date.now() - lastEventAt < 1000) await new Promise((r) => setTimeout(r, 200));
  expect(messages.filter((m) => m.type === 'full-reload')).toEqual([]);
  expect(seen.filter((file) => file.startsWith(DATA_DIR))).toEqual([]);
  expect(messages[0]).toEqual({ type: 'connected' }); // the page's socket was listening all along
  // Control: the app's source is still watched (a change there still updates the page).
  const folders = Object.keys(vite.watcher.getWatched());
  expect(folders).toEqual(expect.arrayContaining([path.join(ROOT, 'src'), path.join(ROOT, 'src', 'features', 'courses', 'api'), path.join(ROOT, 'public')]));
  expect(folders.filter((dir) => dir.startsWith(path.join(ROOT, '.local-supabase')))).toEqual([]);
}, 180_000);
