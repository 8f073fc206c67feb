// `npm run bench:images`: Storage's image transformations (/storage/v1/render/image/...) on the local
// backend, and what they save the home page on a phone.
//  1. Latency of a transformed image, cold (first request for a variant: decode, resize, encode, write
//     the cache) and cached (a file read), p50/p95, for a 2100×900 banner and a 1920×1080 thumbnail.
//  2. The home page's transferred image bytes (sum of the image responses' encoded bodies) at 412×915
//     (a phone, DPR BENCH_DPR, default 2.625), signed in as aluno@escola-demo.com.br, first visit (HTTP
//     cache cleared), scrolled to the end: with the seeded demo images, then with photo-sized uploads
//     (banner 2100×900, thumbnails 1920×1080, as SPEC §9 recommends). "after" is this build; "before"
//     is the SPA of BENCH_BEFORE_REF (a git ref, built in a temporary `git worktree`) or, without it,
//     this build with the render routes off (ENABLE_IMAGE_TRANSFORMATION=false: the SPA falls back to
//     the original files, which is what it served before and what a hosted project without the feature
//     serves; the failed render answers are left out of the sum).
// BENCH_SAMPLES (default 20 cold, 10× that cached) sets the latency samples.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { chromium, type Browser } from 'playwright';
import { LOCAL_SERVICE_ROLE_KEY } from '../../local-supabase/config.ts';
import { freePort } from './processes.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const DPR = Number(process.env.BENCH_DPR || 2.625);
const SAMPLES = Number(process.env.BENCH_SAMPLES || 20);
const BEFORE_REF = process.env.BENCH_BEFORE_REF || '';
const SCHOOL = '5c000000-0000-4000-8000-000000000001';
const CHROME_ACCEPT = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
const bin = (name: string) => path.join(ROOT, 'node_modules', '.bin', name);

async function waitFor(url: string) {
  for (let i = 0; i < 240; i++) {
    if (await fetch(url).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not come up`);
}

function build(cwd: string, api: string, outDir: string) {
  const r = spawnSync(bin('vite'), ['build', '--logLevel', 'error', '--outDir', outDir], { cwd, stdio: 'inherit', env: { ...process.env, VITE_SUPABASE_URL: api } });
  if (r.status !== 0) throw new Error(`build failed in ${cwd}`);
}

/**
 * A deterministic picture with a photo's detail (overlapping shapes, fine lines, text and grain), so
 * that JPEG and WebP sizes behave as they do for real photos (a flat gradient would compress to nothing).
 */
async function photoLike(width: number, height: number, seed: number, label: string, format: 'jpeg' | 'webp'): Promise<Buffer> {
  let s = seed;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const shapes: string[] = [];
  for (let i = 0; i < 160; i++) {
    const [x, y, r] = [rnd() * width, rnd() * height, 10 + (rnd() * width) / 8];
    shapes.push(`<circle cx="${x | 0}" cy="${y | 0}" r="${r | 0}" fill="hsl(${(rnd() * 360) | 0},60%,${(30 + rnd() * 50) | 0}%)" fill-opacity="${(0.2 + rnd() * 0.5).toFixed(2)}"/>`);
  }
  for (let i = 0; i < 60; i++) {
    const [x, y] = [rnd() * width, rnd() * height];
    shapes.push(`<line x1="${x | 0}" y1="${y | 0}" x2="${(x + rnd() * 300 - 150) | 0}" y2="${(y + rnd() * 300 - 150) | 0}" stroke="white" stroke-opacity="0.5" stroke-width="${(1 + rnd() * 3).toFixed(1)}"/>`);
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1e3a8a"/><stop offset="1" stop-color="#f59e0b"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>${shapes.join('')}
    <text x="${width * 0.05}" y="${height * 0.9}" font-family="sans-serif" font-size="${Math.round(height / 9)}" font-weight="bold" fill="white">${label}</text></svg>`;
  const base = await sharp(Buffer.from(svg)).png().toBuffer();
  const grain = await sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 12 } } }).png().toBuffer();
  const img = sharp(base).composite([{ input: grain, blend: 'overlay' }]);
  return format === 'webp' ? img.webp({ quality: 82 }).toBuffer() : img.jpeg({ quality: 82, progressive: true }).toBuffer();
}

async function upload(api: string, bucket: string, name: string, body: Buffer, contentType: string) {
  const res = await fetch(`${api}/storage/v1/object/${bucket}/${name}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${LOCAL_SERVICE_ROLE_KEY}`, apikey: LOCAL_SERVICE_ROLE_KEY, 'Content-Type': contentType, 'x-upsert': 'true', 'cache-control': '31536000' },
    body: new Uint8Array(body),
  });
  if (!res.ok) throw new Error(`upload ${bucket}/${name}: ${res.status} ${await res.text()}`);
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const ms = (x: number) => `${x.toFixed(1)} ms`;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

async function timed(url: string): Promise<{ ms: number; bytes: number; type: string }> {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { Accept: CHROME_ACCEPT } });
  const body = await res.arrayBuffer();
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return { ms: performance.now() - t0, bytes: body.byteLength, type: res.headers.get('content-type') ?? '' };
}

async function latency(api: string, label: string, bucket: string, name: string, width: number, original: number) {
  const url = (w: number) => `${api}/storage/v1/render/image/public/${bucket}/${name}?width=${w}`;
  // Cold: each request a variant never asked before (another width), so each one is rendered.
  const cold: number[] = [];
  for (let i = 0; i < SAMPLES; i++) cold.push((await timed(url(width + 1 + i))).ms);
  const first = await timed(url(width)); // renders and caches the variant the cached figures read
  const cached: number[] = [];
  for (let i = 0; i < SAMPLES * 10; i++) cached.push((await timed(url(width))).ms);
  console.log(
    `  ${label.padEnd(28)} cold p50 ${ms(quantile(cold, 0.5))}, p95 ${ms(quantile(cold, 0.95))} · cached p50 ${ms(quantile(cached, 0.5))}, p95 ${ms(quantile(cached, 0.95))}` +
      ` · ${width} px ${first.type.replace('image/', '')} ${kb(first.bytes)} (original ${kb(original)})`,
  );
}

type StorageState = Awaited<ReturnType<Awaited<ReturnType<Browser['newContext']>>['storageState']>>;

const PHONE = { viewport: { width: 412, height: 915 }, deviceScaleFactor: DPR, isMobile: true, hasTouch: true, locale: 'pt-BR' };

/** The demo student's session (localStorage) on an origin, with today's announcement seen (as bench:lighthouse does). */
async function signedIn(browser: Browser, web: string): Promise<StorageState> {
  const context = await browser.newContext(PHONE);
  try {
    const page = await context.newPage();
    await page.goto(`${web}/escola-demo`);
    const form = page.getByRole('form', { name: 'Login' });
    await form.getByLabel('Email').fill('aluno@escola-demo.com.br');
    await form.getByLabel('Senha').fill('senha123');
    await form.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL(`${web}/`);
    await page.evaluate((school) => {
      const d = new Date();
      const day = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
      localStorage.setItem(`plataforma:announcement-seen:${school}`, day);
    }, SCHOOL);
    return await context.storageState();
  } finally {
    await context.close();
  }
}

/** Image bytes of a first visit to the home page (a new context: empty HTTP cache) on a phone, scrolled to the end. */
async function homeImageBytes(browser: Browser, web: string, state: StorageState): Promise<{ bytes: number; count: number; failed: number }> {
  const context = await browser.newContext({ ...PHONE, storageState: state });
  try {
    const page = await context.newPage();
    let bytes = 0;
    let count = 0;
    let failed = 0;
    const pending: Promise<void>[] = [];
    page.on('requestfinished', (req) => {
      if (req.resourceType() !== 'image') return;
      pending.push(
        (async () => {
          const res = await req.response();
          if (!res || res.status() >= 400) {
            failed++; // a render route turned off: the SPA then loads the original, counted on its own
            return;
          }
          const size = (await req.sizes()).responseBodySize;
          if (process.env.BENCH_VERBOSE) console.log(`      ${res.status()} ${size} B ${req.url()}`);
          bytes += size;
          count++;
        })(),
      );
    });
    await page.goto(`${web}/`);
    await page.getByRole('heading', { name: 'Meus Cursos' }).waitFor();
    await page.waitForLoadState('networkidle');
    for (let y = 0; y < 8; y++) {
      await page.mouse.wheel(0, 800);
      await page.waitForTimeout(150);
    }
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(300);
    await Promise.all(pending);
    return { bytes, count, failed };
  } finally {
    await context.close();
  }
}

async function main() {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'images-bench-'));
  const [apiPort, apiOffPort, webPort, webBeforePort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const api = `http://localhost:${apiPort}`;
  const web = `http://localhost:${webPort}`;
  const webBefore = `http://localhost:${webBeforePort}`;
  const children: ChildProcess[] = [];
  let worktree: string | null = null;
  let browser: Browser | null = null;
  try {
    build(ROOT, api, path.join(tmp, 'after'));
    // "before": another ref's SPA against the same backend, or this SPA against a backend without transformations.
    let beforeApi = api;
    if (BEFORE_REF) {
      worktree = path.join(tmp, 'before-src');
      const add = spawnSync('git', ['worktree', 'add', '--detach', worktree, BEFORE_REF], { cwd: ROOT, stdio: 'ignore' });
      if (add.status !== 0) throw new Error(`git worktree add ${BEFORE_REF} failed`);
      if (!existsSync(path.join(worktree, 'node_modules'))) symlinkSync(path.join(ROOT, 'node_modules'), path.join(worktree, 'node_modules'));
      build(worktree, api, path.join(tmp, 'before'));
    } else {
      beforeApi = `http://localhost:${apiOffPort}`;
      build(ROOT, beforeApi, path.join(tmp, 'before'));
      children.push(
        spawn(bin('tsx'), ['local-supabase/main.ts', '--fresh'], {
          cwd: ROOT,
          stdio: 'ignore',
          env: { ...process.env, LOCAL_SUPABASE_PORT: String(apiOffPort), ENABLE_IMAGE_TRANSFORMATION: 'false', AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: '0' },
        }),
      );
    }
    children.push(
      spawn(bin('tsx'), ['local-supabase/main.ts', '--fresh'], {
        cwd: ROOT,
        stdio: 'ignore',
        env: { ...process.env, LOCAL_SUPABASE_PORT: String(apiPort), ENABLE_IMAGE_TRANSFORMATION: 'true', AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: '0', LOCAL_STORAGE_RENDER_MISSES_PER_MINUTE: '0' },
      }),
    );
    children.push(spawn(bin('vite'), ['preview', '--outDir', path.join(tmp, 'after'), '--port', String(webPort), '--strictPort'], { cwd: ROOT, stdio: 'ignore' }));
    children.push(spawn(bin('vite'), ['preview', '--outDir', path.join(tmp, 'before'), '--port', String(webBeforePort), '--strictPort'], { cwd: ROOT, stdio: 'ignore' }));
    await Promise.all([waitFor(`${api}/health`), waitFor(`${beforeApi}/health`), waitFor(web), waitFor(webBefore)]);

    const beforeLabel = BEFORE_REF ? `before (${BEFORE_REF})` : 'before (original files)';
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    const stateBefore = await signedIn(browser, webBefore);
    const stateAfter = await signedIn(browser, web);
    const compare = async (title: string) => {
      const before = await homeImageBytes(browser!, webBefore, stateBefore);
      const after = await homeImageBytes(browser!, web, stateAfter);
      const saved = before.bytes > 0 ? Math.round((1 - after.bytes / before.bytes) * 100) : 0;
      console.log(`  ${title}`);
      console.log(`    ${beforeLabel.padEnd(28)} ${kb(before.bytes).padStart(10)} in ${before.count} images`);
      console.log(`    ${'after (render route)'.padEnd(28)} ${kb(after.bytes).padStart(10)} in ${after.count} images  (${saved}% less)${after.failed ? `, ${after.failed} failed` : ''}`);
    };

    console.log(`\nHome page image bytes, first visit at 412×915 (DPR ${DPR}), aluno@escola-demo.com.br, scrolled to the end:`);
    await compare('seeded demo images (banner 1050×450, thumbnails 640×360)');

    // Photo-sized uploads over the seeded names (both backends), as a school uploads them.
    const photos: [string, string, Buffer, string][] = [
      ['school-banners', `${SCHOOL}/banner.jpg`, await photoLike(2100, 900, 7, 'Escola Demo', 'jpeg'), 'image/jpeg'],
      ['school-banners', `${SCHOOL}/login-banner.jpg`, await photoLike(1920, 1080, 3, 'Login', 'jpeg'), 'image/jpeg'],
      ['course-thumbnails', `${SCHOOL}/excel-essencial.jpg`, await photoLike(1920, 1080, 11, 'Excel Essencial', 'jpeg'), 'image/jpeg'],
      ['course-thumbnails', `${SCHOOL}/excel-essencial-banner.jpg`, await photoLike(2100, 900, 13, 'Excel', 'jpeg'), 'image/jpeg'],
      ['course-thumbnails', `${SCHOOL}/marketing-digital.webp`, await photoLike(1920, 1080, 17, 'Marketing Digital', 'webp'), 'image/webp'],
    ];
    for (const target of new Set([api, beforeApi])) {
      for (const [bucket, name, body, type] of photos) await upload(target, bucket, name, body, type);
    }
    await compare(`photo-sized uploads (banner 2100×900 ${kb(photos[0]![2].length)}, thumbnails 1920×1080 ${kb(photos[2]![2].length)} and ${kb(photos[4]![2].length)})`);

    console.log(`\nTransformed-image latency (local backend, PGlite; ${SAMPLES} cold renders, ${SAMPLES * 10} cached reads, WebP accepted):`);
    await latency(api, 'banner 2100×900 → 960 px', 'school-banners', `${SCHOOL}/banner.jpg`, 960, photos[0]![2].length);
    await latency(api, 'thumbnail 1920×1080 → 640 px', 'course-thumbnails', `${SCHOOL}/excel-essencial.jpg`, 640, photos[2]![2].length);
  } finally {
    await browser?.close();
    for (const c of children) c.kill('SIGTERM');
    if (worktree) spawnSync('git', ['worktree', 'remove', '--force', worktree], { cwd: ROOT, stdio: 'ignore' });
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
