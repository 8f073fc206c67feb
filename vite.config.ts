import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig, loadEnv } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { securityHeadersPlugin } from './scripts/vite/security-headers.ts';
import { brotliPreviewPlugin } from './scripts/vite/brotli-preview.ts';
import { firstVisitPlugins } from './src/platform/first-visit/vite-plugin.ts';
import { LOCAL_ANON_KEY, LOCAL_API_URL } from './src/platform/api-defaults.ts';
import { firstVisitPages } from './src/app/first-visit-pages.ts';

/**
 * What the dev server watches: the SPA's own source and the files its build reads. Anything else in the
 * project changes while the app runs and must not reload the open pages (issue 38): local-supabase's
 * data folder (.local-supabase/, or LOCAL_SUPABASE_DATA_DIR), where the first edge-function call after
 * `npm run db:reset` unpacks npm packages into Deno's cache (a package's tsconfig.json or .html file
 * made Vite reload every page), the database and uploaded files; test and build output (test-results,
 * playwright-report, coverage, dist*); and the backend, the functions, migrations, tests and docs,
 * which the SPA never imports. scripts/vite/ holds plugins of this config: Vite restarts on their change.
 */
function notAppSource(root: string) {
  const watched = [/^src(\/|$)/, /^public(\/|$)/, /^index\.html$/, /^vite\.config\.ts$/, /^package\.json$/, /^tsconfig[^/]*\.json$/, /^\.env/, /^scripts$/, /^scripts\/vite(\/|$)/];
  return (file: string) => {
    const relative = path.relative(root, file).split(path.sep).join('/');
    // The root itself, and files outside the project (this config's dependencies elsewhere) are Vite's business.
    if (relative === '' || relative.startsWith('../')) return false;
    return !watched.some((pattern) => pattern.test(relative));
  };
}

export default defineConfig(({ command, mode }) => {
  // The same defaults as src/platform/api-config.ts.
  const env = loadEnv(mode, import.meta.dirname, 'VITE_');
  const apiUrl = env.VITE_SUPABASE_URL || process.env.VITE_SUPABASE_URL || LOCAL_API_URL;
  const anonKey = env.VITE_SUPABASE_ANON_KEY || process.env.VITE_SUPABASE_ANON_KEY || LOCAL_ANON_KEY;
  return {
    plugins: [
      // The first visit (docs/first-visit.md): supabase-js's stand-ins, the API's preconnect and the
      // HTML's inline script that asks for the pages of src/app/first-visit-pages.ts.
      ...firstVisitPlugins({ apiUrl, app: firstVisitPages(apiUrl, anonKey), srcDir: path.resolve(import.meta.dirname, 'src') }),
      react(),
      tailwindcss(),
      securityHeadersPlugin(apiUrl),
      // After the security headers: its answers carry them too.
      brotliPreviewPlugin(),
    ],
    resolve: {
      alias: [
        { find: '@', replacement: path.resolve(import.meta.dirname, 'src') },
        // react-router's package exports only its development build (remix-run/react-router#12532), with
        // its dev-only warnings and checks; the production build leaves them out of every first download
        // (0.6 KB gzip less on the login page). Development and tests keep the warnings.
        ...(command === 'build'
          ? [
              { find: /^react-router$/, replacement: path.resolve(import.meta.dirname, 'node_modules/react-router/dist/production/index.mjs') },
              { find: /^react-router\/dom$/, replacement: path.resolve(import.meta.dirname, 'node_modules/react-router/dist/production/dom-export.mjs') },
            ]
          : []),
      ],
    },
    server: { host: 'localhost', port: 5173, strictPort: true, watch: { ignored: [notAppSource(import.meta.dirname)] } },
    preview: {
      host: 'localhost',
      port: 4173,
      // HTTPS with HTTP/2, as static hosts serve the SPA (PREVIEW_TLS_CERT and PREVIEW_TLS_KEY, PEM
      // files): `npm run bench:lighthouse` measures through it. Vite answers HTTP/2 whenever https is set.
      https: process.env.PREVIEW_TLS_CERT && process.env.PREVIEW_TLS_KEY ? { cert: readFileSync(process.env.PREVIEW_TLS_CERT), key: readFileSync(process.env.PREVIEW_TLS_KEY) } : undefined,
    },
    build: {
      sourcemap: true,
      // Every browser the SPA supports follows <link rel="modulepreload"> itself (Safari from 17); an
      // older one simply fetches each module when it is imported. The polyfill was ~0.6 KB gzip of
      // the login page's first download (issue 12's 150 KB budget).
      modulePreload: { polyfill: false },
      rolldownOptions: {
        output: {
          codeSplitting: {
            // The primitives every route's form uses would otherwise become nine tiny shared chunks
            // on the login page, each a request with its own overhead: one 'ui' chunk is ~2.4 KB
            // gzip smaller on the first route (npm run bench:bundle).
            groups: [
              { name: 'ui', test: /\/src\/(components\/ui\/(input|label|card|form-field|storage-image)|utils\/cn|platform\/(image|api-config|api-defaults|first-visit\/lcp-hint))\.tsx?$|\/node_modules\/clsx\// },
              { name: 'query', test: /\/node_modules\/@tanstack\/(react-query|query-core)\//, priority: 1 },
            ],
          },
        },
      },
    },
  };
});
