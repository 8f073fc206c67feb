// `npm run bench:bundle`: what each route downloads before its first paint. Builds the SPA (Vite's
// production build, into a temporary folder), then for each route sums the gzip size of the JS and
// CSS it loads: the entry with its static imports, plus the route's lazy chunks (layout and page)
// with theirs. Also lists the heavy packages each route pulls in, so code that belongs elsewhere
// (realtime, storage, functions, toasts, zod, markdown, dialogs) shows up by name.
// `-- --files` lists the first route's files with their gzip bytes and source modules.
// Exits 1 when the first route (/:slug, the login page) is over its budget, or when the chart library
// is in a student route's first download or its chunk is over 80 KB gzip (issue 25).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'vite';

const BUDGET_FIRST_ROUTE = 150 * 1024;
const ROOT = path.resolve(import.meta.dirname, '../..');

/** The lazy modules of each route, as src/app/router.tsx loads them. */
const ROUTES: [string, string[]][] = [
  ['/:slug (login, first route)', ['src/app/routes/auth.tsx']],
  ['/ (home)', ['src/app/layout/member-layout.tsx', 'src/app/routes/home.tsx']],
  ['/course/:id', ['src/app/layout/member-layout.tsx', 'src/app/routes/course.tsx']],
  ['/course/:id/lesson/:id', ['src/app/routes/lesson.tsx']],
  ['/checkout/:slug', ['src/app/layout/member-layout.tsx', 'src/app/routes/checkout.tsx']],
  ['/certificado/:code (public)', ['src/app/routes/certificate.tsx']],
  ['/admin', ['src/app/layout/admin-layout.tsx', 'src/app/routes/admin/dashboard.tsx']],
];

/** Packages worth naming when they appear in a route's first download. */
const WATCH = [
  '@supabase/realtime-js',
  '@supabase/storage-js',
  '@supabase/functions-js',
  '@supabase/postgrest-js',
  '@supabase/auth-js',
  'sonner',
  'zod',
  'react-hook-form',
  'marked',
  'dompurify',
  '@radix-ui/react-dialog',
  '@radix-ui/react-dropdown-menu',
  '@radix-ui/react-popover',
  '@tanstack/react-query',
  'react-player',
  'tus-js-client',
  '@dnd-kit/core',
  'lucide-react',
  // The certificate PDF: only when the student clicks 'Baixar certificado' (never on a route).
  'pdf-lib',
  // The chart library (issue 25): loaded by the admin screens that draw a chart, after their own code.
  '@visx/shape',
];

/** The chart library's packages (visx and the d3 modules under it): never on a student route, its chunk ≤ 80 KB gzip. */
const CHART_PACKAGES = ['@visx/', 'd3-'];
const BUDGET_CHART_CHUNK = 80 * 1024;

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

async function main() {
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'bundle-bench-'));
  const modulesOf = new Map<string, string[]>();
  // Records which source modules ended up in which output file.
  const record: Plugin = {
    name: 'record-chunk-modules',
    generateBundle(_options, bundle) {
      for (const out of Object.values(bundle)) if (out.type === 'chunk') modulesOf.set(out.fileName, Object.keys(out.modules));
    },
  };
  try {
    await build({ root: ROOT, logLevel: 'warn', plugins: [record], build: { outDir, manifest: true, sourcemap: false, emptyOutDir: true } });
    const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
    const gz = new Map<string, number>();
    const sizeOf = (file: string) => {
      if (!gz.has(file)) gz.set(file, gzipSync(readFileSync(path.join(outDir, file))).length);
      return gz.get(file)!;
    };
    /** The files a manifest key loads at once: itself, its static imports (recursively) and their CSS. */
    const closure = (key: string, files = new Set<string>()) => {
      const chunk = manifest[key];
      if (!chunk) throw new Error(`not in the manifest: ${key}`);
      if (files.has(chunk.file)) return files;
      files.add(chunk.file);
      for (const css of chunk.css ?? []) files.add(css);
      for (const imp of chunk.imports ?? []) closure(imp, files);
      return files;
    };
    const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
    const entryFiles = closure(entry);
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    console.log(`entry (${manifest[entry]!.file} + static imports): ${kb([...entryFiles].reduce((s, f) => s + sizeOf(f), 0))} gzip\n`);
    console.log('route'.padEnd(32), 'JS'.padStart(9), 'CSS'.padStart(9), 'total'.padStart(9), ' files  packages in the first download');
    let over = false;
    for (const [i, [route, lazy]] of ROUTES.entries()) {
      const files = new Set(entryFiles);
      for (const key of lazy) closure(key, files);
      const js = [...files].filter((f) => f.endsWith('.js')).reduce((s, f) => s + sizeOf(f), 0);
      const css = [...files].filter((f) => f.endsWith('.css')).reduce((s, f) => s + sizeOf(f), 0);
      const modules = [...files].flatMap((f) => modulesOf.get(f) ?? []);
      const packages = WATCH.filter((p) => modules.some((m) => m.includes(`/node_modules/${p}/`)));
      const budget = i === 0 ? ` (${js + css} bytes; budget ${kb(BUDGET_FIRST_ROUTE)}: ${js + css <= BUDGET_FIRST_ROUTE ? 'ok' : 'OVER'})` : '';
      if (i === 0 && js + css > BUDGET_FIRST_ROUTE) over = true;
      if (i === 0 && process.argv.includes('--files'))
        for (const f of [...files].sort((a, b) => sizeOf(b) - sizeOf(a))) console.log(`    ${String(sizeOf(f)).padStart(7)}  ${f}  ${(modulesOf.get(f) ?? []).filter((m) => !m.includes('node_modules')).map((m) => path.relative(ROOT, m)).join(' ')}`);
      console.log(route.padEnd(32), kb(js).padStart(9), kb(css).padStart(9), kb(js + css).padStart(9), String(files.size).padStart(6), ` ${packages.join(', ')}${budget}`);
    }
    // Where the chart library landed: its chunk(s), their size, and the routes whose first download has it.
    const isChart = (m: string) => CHART_PACKAGES.some((p) => m.includes(`/node_modules/${p}`));
    const chartFiles = [...modulesOf].filter(([, modules]) => modules.some(isChart)).map(([file]) => file);
    const chartBytes = chartFiles.reduce((s, f) => s + sizeOf(f), 0);
    const chartRoutes = ROUTES.filter(([, lazy]) => {
      const files = new Set(entryFiles);
      for (const key of lazy) closure(key, files);
      return chartFiles.some((f) => files.has(f));
    }).map(([route]) => route);
    const studentRoutes = chartRoutes.filter((r) => !r.startsWith('/admin'));
    console.log(
      `\nchart library (@visx/*, d3): ${chartFiles.join(', ') || 'none'}: ${kb(chartBytes)} gzip (budget ${kb(BUDGET_CHART_CHUNK)}: ${chartBytes <= BUDGET_CHART_CHUNK ? 'ok' : 'OVER'}); ` +
        `in the first download of: ${chartRoutes.join(', ') || 'no route (loaded on demand)'}${studentRoutes.length ? ' — a student route: FAIL' : ''}`,
    );
    if (chartBytes > BUDGET_CHART_CHUNK || studentRoutes.length) over = true;
    if (over) process.exitCode = 1;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

await main();
