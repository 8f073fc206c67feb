// `npm run bench:lighthouse`: Lighthouse 13 (mobile preset, simulated throttling) on the production
// build against a fresh local backend, in Debian's Chromium: the login page signed out, then the home
// and a lesson page signed in as the demo student, each visited once before on the same phone screen,
// as a returning student meets them (the home's banner and the lesson's video frame are then
// remembered where they were painted, src/platform/first-visit/lcp-hint.ts); then the two cases a
// student meets every day: the home with the day's announcement popup (not yet seen today), and the
// lesson never opened before (a link from an e-mail: no remembered frame nor image for its path).
// BENCH_RUNS runs (default 3) per page;
// prints the median run's four category scores (by performance), each metric's median over the runs
// (the largest paint with every run's), and the failing audits of the median run.
// Each page is measured first COLD, as Lighthouse measures by default and as a first visit meets it:
// the HTTP cache is cleared through CDP before every run. The login page is a visitor's first: Lighthouse's
// own reset clears storage too. The signed-in pages keep the session (localStorage), as a student who
// signed in earlier meets them, so they run with --disable-storage-reset and the cache is cleared here
// instead. Then WARM (cache kept from the previous run: a returning visitor), on a second line.
// Each case also prints its blocking time and longest task by CPU time (each main-thread task's thread
// time × 4, from the run's trace; cpuBlocking): on a shared, loaded machine Lighthouse's own figures
// count the time the browser waited for a core, 4×, and say more about the machine than the page.
// And its largest paint: the element, and when the browser painted it in each run, unthrottled (what the
// simulated LCP replays is every request finished by then: docs/first-visit.md, "Measuring it").
// BENCH_PAGES=login,home,home-popup,lesson,lesson-first picks pages; BENCH_KEEP=1 keeps the JSON reports, with each run's trace,
// and prints where; with LANTERN_DEBUG=1 too, Lighthouse also saves the simulated timelines its
// metrics come from (lh-N-pessimisticLargestContentfulPaint.trace.json…): what the simulated LCP waited for.
// Both servers speak HTTPS with HTTP/2, as a phone meets them (static hosts and the hosted Supabase API
// serve HTTP/2; over HTTP/1.1 a browser, and Lighthouse's simulation, allow six connections per origin
// and pay a round trip per request on each), with scripts/tls's throwaway localhost certificate, which
// Chromium is told to accept. BENCH_HTTP1=1 measures over plain HTTP/1.1 instead.
// BENCH_THROTTLING=devtools throttles the real browser instead of simulating (Lighthouse's
// --throttling-method=devtools: each request delayed by the mobile round trip, the bandwidth capped,
// the CPU slowed 4×) and reports what it then observed: how a page really behaves on that link, where
// the default simulation replays the trace on a model (one request at a time per HTTP/2 connection).
// Lighthouse runs through `npx lighthouse@13.5.0` (downloaded once into the npm cache): it needs no
// place in the project's dependencies, and 13.x runs on Node 20 despite declaring Node 22.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { get as httpsGet } from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright';
import { freePort } from './processes.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const RUNS = Number(process.env.BENCH_RUNS || 3);
const PAGES = new Set((process.env.BENCH_PAGES || 'login,home,lesson').split(','));
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const TLS = !process.env.BENCH_HTTP1;
const DEVTOOLS_THROTTLING = process.env.BENCH_THROTTLING === 'devtools';
const FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', ...(TLS ? ['--ignore-certificate-errors'] : [])];
const LESSON = '/course/c0000000-0000-4000-8000-000000000001/lesson/e0000000-0000-4000-8000-000000000003';
const METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'];

/** 2xx from `url`; an https one with the throwaway certificate. */
function answers(url: string, headers: Record<string, string> = {}): Promise<boolean> {
  if (!url.startsWith('https:')) return fetch(url, { headers }).then((r) => r.ok, () => false);
  return new Promise((resolve) => {
    httpsGet(url, { rejectUnauthorized: false, headers }, (res) => {
      res.resume();
      resolve((res.statusCode ?? 500) < 300);
    }).on('error', () => resolve(false));
  });
}

async function waitFor(url: string) {
  for (let i = 0; i < 240; i++) {
    if (await answers(url)) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not come up`);
}

interface Report {
  categories: Record<string, { score: number | null; auditRefs: { id: string }[] }>;
  audits: Record<string, { score: number | null; title: string; displayValue?: string; numericValue?: number; details?: { items?: { node?: { snippet?: string; explanation?: string } }[] } }>;
  /** From the run's trace (cpuBlocking), not Lighthouse's. */
  cpu?: { longest: number; blocking: number };
  /** From the run's trace (largestPaint): the element and when the browser painted it, unthrottled. */
  paint?: { element: string; at: number };
}

/** Lighthouse's mobile preset slows the CPU 4×: a task's simulated length is its observed one × 4. */
const CPU_SLOWDOWN = 4;

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { isLoadingMainFrame?: boolean; documentLoaderURL?: string; nodeName?: string } };
}

/** The run's navigation in its trace's events (the page's, not about:blank's). */
function traceNavigation(events: TraceEvent[]) {
  return events.filter((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame && e.args.data.documentLoaderURL?.startsWith('http')).pop();
}

/**
 * The largest paint as the browser recorded it, unthrottled: its element and when, after the
 * navigation. The simulated LCP replays every request that had finished by then (Lantern's graph):
 * a paint that comes after the page's chunks have arrived costs, simulated, their whole download.
 */
function largestPaint(events: TraceEvent[]): Report['paint'] {
  const navigation = traceNavigation(events);
  const last = navigation && events.filter((e) => e.name === 'largestContentfulPaint::Candidate' && e.pid === navigation.pid && e.ts >= navigation.ts).pop();
  return last && { element: last.args?.data?.nodeName ?? '?', at: (last.ts - navigation.ts) / 1000 };
}

/**
 * The main thread's tasks after the first paint, by the renderer's own CPU time (thread time) × 4
 * instead of wall time × 4: on a shared, loaded machine a task's wall time also counts the time the
 * process waited for a core, which the simulation then charges 4× (a 25 ms task measured 240 ms, a
 * 950 ms simulated one). The longest task and the blocking time over 50 ms, as the simulation would
 * charge them on an idle machine: a check of the work, beside Lighthouse's own figures.
 */
function cpuBlocking(events: TraceEvent[]): Report['cpu'] {
  const navigation = traceNavigation(events);
  if (!navigation) return undefined;
  const main = events.find((e) => e.name === 'thread_name' && e.pid === navigation.pid && e.args?.name === 'CrRendererMain');
  const paint = events.find((e) => e.name === 'firstContentfulPaint' && e.pid === navigation.pid && e.ts >= navigation.ts);
  const from = paint?.ts ?? navigation.ts;
  const tasks = events.filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.pid === navigation.pid && e.tid === main?.tid && e.ts >= from);
  const simulated = tasks.map((t) => ((t.tdur ?? t.dur ?? 0) / 1000) * CPU_SLOWDOWN);
  return { longest: Math.max(0, ...simulated), blocking: simulated.reduce((sum, ms) => sum + Math.max(0, ms - 50), 0) };
}

/** Each metric's median over the runs (not the median run's: runs differ in which metric is worse),
 * the largest paint with each run's. */
function metricMedians(reports: Report[], metrics: string[]): string {
  // The largest paint to the hundredth: its target (2.0 s) is where runs land.
  const format = (m: string, v: number) =>
    m === 'cumulative-layout-shift' ? v.toFixed(3) : m === 'total-blocking-time' ? `${Math.round(v)} ms` : `${(v / 1000).toFixed(m === 'largest-contentful-paint' ? 2 : 1)} s`;
  return metrics
    .map((m) => {
      const values = reports.map((r) => r.audits[m]?.numericValue ?? NaN);
      const median = [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
      const runs = m === 'largest-contentful-paint' ? ` (runs ${values.map((v) => format(m, v)).join(', ')})` : '';
      return `${m.replace(/-/g, ' ')} ${format(m, median)}${runs}`;
    })
    .join(' · ');
}

function lighthouse(url: string, port: number, outDir: string, i: number, keepStorage: boolean): Report {
  const out = path.join(outDir, `lh-${i}.json`);
  const r = spawnSync(
    'npx',
    ['-y', 'lighthouse@13.5.0', url, `--port=${port}`, ...(keepStorage ? ['--disable-storage-reset'] : []), '--save-assets', ...(DEVTOOLS_THROTTLING ? ['--throttling-method=devtools'] : []), '--output=json', `--output-path=${out}`, '--quiet', '--only-categories=performance,accessibility,best-practices,seo'],
    { cwd: os.tmpdir(), stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', env: { ...process.env, CHROME_PATH: CHROMIUM } },
  );
  if (r.status !== 0) throw new Error(`lighthouse failed on ${url}: ${r.stderr.split('\n').filter((l) => !/warn/.test(l)).slice(-5).join('\n')}`);
  const report = JSON.parse(readFileSync(out, 'utf8')) as Report;
  const trace = path.join(outDir, `lh-${i}-0.trace.json`);
  if (existsSync(trace)) {
    const parsed = JSON.parse(readFileSync(trace, 'utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
    const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
    report.cpu = cpuBlocking(events);
    report.paint = largestPaint(events);
    // The traces are large: kept only when asked for (BENCH_KEEP).
    if (!process.env.BENCH_KEEP) for (const f of readdirSync(outDir).filter((f) => f.startsWith(`lh-${i}-0.`))) rmSync(path.join(outDir, f));
  }
  return report;
}

/** One DevTools protocol call through a page target of the browser Lighthouse drives. */
async function cdp(cdpPort: number, method: string, params: Record<string, unknown> = {}): Promise<unknown> {
  const targets = (await (await fetch(`http://127.0.0.1:${cdpPort}/json/list`)).json()) as { type: string; webSocketDebuggerUrl: string }[];
  const target = targets.find((t) => t.type === 'page');
  if (!target) throw new Error(`no page target for ${method}`);
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  return new Promise((resolve, reject) => {
    ws.onopen = () => ws.send(JSON.stringify({ id: 1, method, params }));
    ws.onmessage = (event) => {
      const msg = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
      if (msg.id !== 1) return;
      ws.close();
      if (msg.error) reject(new Error(`${method}: ${msg.error.message}`));
      else resolve(msg.result);
    };
    ws.onerror = () => reject(new Error('CDP connection failed'));
  });
}

/** The browser's HTTP cache cleared (not its storage). */
const clearHttpCache = (cdpPort: number) => cdp(cdpPort, 'Network.clearBrowserCache');

/** Before a run: from the student's localStorage at `origin`, the changes to make (a value to write,
 * null to remove). */
type StoragePrep = { origin: string; changes: (items: Record<string, string>) => Record<string, string | null> };

async function prepareStorage(cdpPort: number, { origin, changes }: StoragePrep) {
  const storageId = { securityOrigin: origin, isLocalStorage: true };
  // The protocol reaches an origin's storage through a frame of it: a static file, no app run.
  await cdp(cdpPort, 'Page.navigate', { url: `${origin}/robots.txt` });
  let entries: [string, string][] | undefined;
  for (let i = 0; !entries; i++) {
    try {
      ({ entries } = (await cdp(cdpPort, 'DOMStorage.getDOMStorageItems', { storageId })) as { entries: [string, string][] });
    } catch (error) {
      if (i === 50) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  for (const [key, value] of Object.entries(changes(Object.fromEntries(entries)))) {
    if (value === null) await cdp(cdpPort, 'DOMStorage.removeDOMStorageItem', { storageId, key });
    else await cdp(cdpPort, 'DOMStorage.setDOMStorageItem', { storageId, key, value });
  }
}

/** BENCH_RUNS cold runs (cache cleared before each), then BENCH_RUNS warm runs. `firstVisit`: storage
 * is cleared too (Lighthouse's own reset), as a visitor who never came meets the page. `prep`: the
 * storage each run starts from (the popup not seen today, a lesson's frame forgotten). */
async function coldThenWarm(url: string, cdpPort: number, outDir: string, first: number, firstVisit = false, prep?: StoragePrep) {
  const cold: Report[] = [];
  for (let i = 0; i < RUNS; i++) {
    await clearHttpCache(cdpPort);
    if (prep) await prepareStorage(cdpPort, prep);
    cold.push(lighthouse(url, cdpPort, outDir, first + i, !firstVisit));
  }
  const warm: Report[] = [];
  for (let i = 0; i < RUNS; i++) {
    if (prep) await prepareStorage(cdpPort, prep);
    warm.push(lighthouse(url, cdpPort, outDir, first + RUNS + i, true));
  }
  return { cold, warm };
}

function summarizeWarm(reports: Report[]) {
  const perf = (r: Report) => r.categories.performance!.score ?? 0;
  const median = [...reports].sort((a, b) => perf(a) - perf(b))[Math.floor(reports.length / 2)]!;
  console.log(
    `  warm (HTTP cache kept): performance ${Math.round(perf(median) * 100)} (runs ${reports.map((r) => Math.round(perf(r) * 100)).join(', ')}) · ` +
      metricMedians(reports, ['largest-contentful-paint', 'total-blocking-time']),
  );
}

/** The CPU-time figures' medians over the runs (cpuBlocking), formatted; undefined without traces. */
function cpuMedians(reports: Report[]) {
  const runs = reports.flatMap((r) => (r.cpu ? [r.cpu] : []));
  if (runs.length === 0) return undefined;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const ms = (v: number) => `${Math.round(v)} ms`;
  return { longest: ms(median(runs.map((c) => c.longest))), blocking: ms(median(runs.map((c) => c.blocking))), runs: runs.map((c) => ms(c.blocking)).join(', ') };
}

/** Every case's cold figures, printed together at the end (printTable). */
const table: string[] = [];

function summarize(name: string, reports: Report[]) {
  const perf = (r: Report) => r.categories.performance!.score ?? 0;
  const sorted = [...reports].sort((a, b) => perf(a) - perf(b));
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const score = (k: string) => Math.round((median.categories[k]?.score ?? 0) * 100);
  const metric = (m: string) => {
    const values = reports.map((r) => r.audits[m]?.numericValue ?? NaN).sort((x, y) => x - y);
    return values[Math.floor(values.length / 2)]!;
  };
  const lcp = `${(metric('largest-contentful-paint') / 1000).toFixed(2)} s`;
  const tbt = `${Math.round(metric('total-blocking-time'))} ms`;
  const cpu = cpuMedians(reports);
  table.push(`  ${String(score('performance')).padStart(11)}  ${String(score('accessibility')).padStart(13)}  ${lcp.padStart(6)}  ${tbt.padStart(7)}  ${(cpu?.blocking ?? '–').padStart(7)}  ${(cpu?.longest ?? '–').padStart(7)}  ${name}`);
  console.log(`\n${name}  (cold cache, median of ${reports.length}; performance runs: ${reports.map((r) => Math.round(perf(r) * 100)).join(', ')})`);
  console.log(`  performance ${score('performance')}  accessibility ${score('accessibility')}  best practices ${score('best-practices')}  SEO ${score('seo')}`);
  console.log(`  ${metricMedians(reports, METRICS)}`);
  if (cpu) console.log(`  by CPU time (thread time × ${CPU_SLOWDOWN}, the machine's load left out): longest task ${cpu.longest} · blocking ${cpu.blocking} (runs ${cpu.runs})`);
  const paints = reports.flatMap((r) => (r.paint ? [r.paint] : []));
  if (paints.length)
    console.log(`  largest paint ${[...new Set(paints.map((p) => p.element))].join(' / ')}, painted unthrottled at ${paints.map((p) => `${Math.round(p.at)} ms`).join(', ')} (the simulation replays every request finished by then)`);
  for (const cat of ['accessibility', 'best-practices', 'seo']) {
    for (const ref of median.categories[cat]!.auditRefs) {
      const audit = median.audits[ref.id]!;
      if (audit.score === null || audit.score >= 1) continue;
      console.log(`  ✗ ${cat}: ${ref.id} — ${audit.title}`);
      for (const item of (audit.details?.items ?? []).slice(0, 4)) {
        if (item.node?.snippet) console.log(`      ${item.node.snippet.slice(0, 140)}  ${(item.node.explanation ?? '').split('\n').slice(-1)[0]!.slice(0, 120)}`);
      }
    }
  }
}

function printTable() {
  console.log(`\nEvery case, cold cache, median of ${RUNS} (LCP and TBT: each metric's median; CPU TBT and CPU task: the same by thread time, the machine's load left out):\n  performance  accessibility     LCP      TBT  CPU TBT  CPU task  case`);
  for (const row of table) console.log(row);
}

async function main() {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'lighthouse-bench-'));
  const apiPort = await freePort();
  const apiTlsPort = await freePort();
  const webPort = await freePort();
  const cdpPort = await freePort();
  const scheme = TLS ? 'https' : 'http';
  const api = `${scheme}://localhost:${TLS ? apiTlsPort : apiPort}`;
  const web = `${scheme}://localhost:${webPort}`;
  const bin = (name: string) => path.join(ROOT, 'node_modules', '.bin', name);
  const children: ReturnType<typeof spawn>[] = [];
  try {
    const cert = path.join(ROOT, 'scripts', 'tls', 'localhost-cert.pem');
    const key = path.join(ROOT, 'scripts', 'tls', 'localhost-key.pem');
    const build = spawnSync(bin('vite'), ['build', '--logLevel', 'error', '--outDir', path.join(tmp, 'dist')], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, VITE_SUPABASE_URL: api } });
    if (build.status !== 0) throw new Error('build failed');
    const apiTls = TLS ? { LOCAL_SUPABASE_TLS_PORT: String(apiTlsPort), LOCAL_SUPABASE_TLS_CERT: cert, LOCAL_SUPABASE_TLS_KEY: key } : {};
    const webTls = TLS ? { PREVIEW_TLS_CERT: cert, PREVIEW_TLS_KEY: key } : {};
    children.push(spawn(bin('tsx'), ['local-supabase/main.ts', '--fresh'], { cwd: ROOT, stdio: 'ignore', env: { ...process.env, LOCAL_SUPABASE_PORT: String(apiPort), ...apiTls } }));
    children.push(spawn(bin('vite'), ['preview', '--outDir', path.join(tmp, 'dist'), '--port', String(webPort), '--strictPort'], { cwd: ROOT, stdio: 'ignore', env: { ...process.env, ...webTls } }));
    await waitFor(`${api}/health`);
    await waitFor(web);
    console.log(`Served over ${TLS ? 'HTTPS with HTTP/2 (both the SPA and the API)' : 'plain HTTP/1.1 (BENCH_HTTP1)'}; ${DEVTOOLS_THROTTLING ? 'throttled in the browser (BENCH_THROTTLING=devtools), figures as observed' : 'simulated throttling (Lighthouse default)'}.`);
    // Warm the backend once (the first requests of a fresh server compile its caches), and have the
    // preview compress every script and stylesheet once, as static hosts serve them precompressed.
    await answers(`${api}/rest/v1/schools?select=slug`);
    for (const file of readdirSync(path.join(tmp, 'dist', 'assets')).filter((f) => /\.(js|css)$/.test(f))) {
      await answers(`${web}/assets/${file}`, { 'accept-encoding': 'br' });
    }

    // Lighthouse drives a Chromium we start with a debugging port and a profile folder; a signed-in
    // profile is prepared beforehand by Playwright (which must not stay attached while Lighthouse runs).
    const withChromium = async <T>(profile: string, fn: () => T): Promise<T> => {
      const chrome = spawn(CHROMIUM, [...FLAGS, `--remote-debugging-port=${cdpPort}`, `--user-data-dir=${profile}`, 'about:blank'], { stdio: 'ignore' });
      try {
        await waitFor(`http://127.0.0.1:${cdpPort}/json/version`);
        return await fn();
      } finally {
        chrome.kill('SIGTERM');
        await new Promise((r) => chrome.once('exit', r));
      }
    };

    if (PAGES.has('login')) {
      const login = await withChromium(path.join(tmp, 'signed-out'), () => coldThenWarm(`${web}/escola-demo`, cdpPort, tmp, 0, true));
      summarize('/escola-demo (login, signed out)', login.cold);
      summarizeWarm(login.warm);
    }

    const signedIn = path.join(tmp, 'signed-in');
    // Lighthouse's mobile screen (412×823 at 1.75×): what is remembered is where the pages painted there.
    const phone = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };
    const context = await chromium.launchPersistentContext(signedIn, { executablePath: CHROMIUM, args: FLAGS.slice(1), headless: true, ignoreHTTPSErrors: TLS, ...phone });
    const page = await context.newPage();
    await page.goto(`${web}/escola-demo`);
    const form = page.getByRole('form', { name: 'Login' });
    await form.getByLabel('Email').fill('aluno@escola-demo.com.br');
    await form.getByLabel('Senha').fill('senha123');
    await form.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL(`${web}/`);
    // The home as the student saw it after signing in (its banner remembered for the next visit, lcp-hint.ts).
    await page.waitForLoadState('networkidle');
    // Today's announcement seen, so the popup does not cover the page being measured.
    await page.evaluate(() => {
      const d = new Date();
      const day = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
      localStorage.setItem('plataforma:announcement-seen:5c000000-0000-4000-8000-000000000001', day);
    });
    // The lesson as the student left it, watching (its video's frame remembered for the next visit,
    // lcp-hint.ts), as a student returning to the lesson they were on meets it; for lesson-first, a device
    // that has shown a lesson before (where lessons lay their video out is kept: a poster is painted there).
    if (PAGES.has('lesson') || PAGES.has('lesson-first')) {
      await page.goto(`${web}${LESSON}`);
      await page.waitForFunction(() => {
        const video = document.querySelector('video');
        return !!video && video.readyState >= 2 && !video.seeking;
      });
      await page.goto(`${web}/`);
      await page.waitForLoadState('networkidle');
    }
    await context.close();

    // Today's announcement seen (a later visit of the day), or not yet (the day's first: the popup).
    const SEEN = 'plataforma:announcement-seen:5c000000-0000-4000-8000-000000000001';
    const today = () => {
      const d = new Date();
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    };
    const announcementSeen: StoragePrep = { origin: web, changes: () => ({ [SEEN]: today() }) };
    const announcementNotSeen: StoragePrep = { origin: web, changes: () => ({ [SEEN]: null }) };
    // The lesson never opened: no frame of its video (plataforma:lcp-frame:<user>:<path>) nor image
    // (plataforma:lcp-image's entry for its path) remembered, the home's banner kept.
    const lessonNeverOpened: StoragePrep = {
      origin: web,
      changes: (items) => {
        const frames = Object.keys(items).filter((k) => k.startsWith('plataforma:lcp-frame:') && k.endsWith(`:${LESSON}`));
        const hints = JSON.parse(items['plataforma:lcp-image'] ?? '{}') as Record<string, unknown>;
        delete hints[LESSON];
        return { ...Object.fromEntries(frames.map((k) => [k, null])), 'plataforma:lcp-image': JSON.stringify(hints) };
      },
    };
    const cases: [page: string, url: string, name: string, prep: StoragePrep][] = [
      ['home', '/', '/ (home, signed in as aluno@escola-demo.com.br, announcement seen today)', announcementSeen],
      ['home-popup', '/', "/ (home with the day's announcement popup, not yet seen today)", announcementNotSeen],
      ['lesson', LESSON, `${LESSON} (lesson with an uploaded video, its frame remembered)`, announcementSeen],
      ['lesson-first', LESSON, `${LESSON} (the same lesson never opened before: no frame of it remembered; its poster)`, lessonNeverOpened],
    ];
    await withChromium(signedIn, async () => {
      for (const [i, [pageName, url, name, prep]] of cases.entries()) {
        if (!PAGES.has(pageName)) continue;
        const { cold, warm } = await coldThenWarm(`${web}${url}`, cdpPort, tmp, 100 * (i + 1), false, prep);
        summarize(name, cold);
        summarizeWarm(warm);
      }
    });
    printTable();
    console.log('\nTargets (cold cache): performance ≥ 97, accessibility 100, LCP ≤ 2.0 s and TBT ≤ 100 ms on each page; best practices and SEO ≥ 95 on the login page.');
  } finally {
    for (const c of children) c.kill('SIGTERM');
    if (process.env.BENCH_KEEP) console.log(`\nReports kept in ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
