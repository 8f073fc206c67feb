import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig, loadEnv, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { securityHeadersPlugin } from './scripts/vite/security-headers.ts';
import { brotliPreviewPlugin } from './scripts/vite/brotli-preview.ts';
import { firstVisitPreloadPlugin } from './scripts/vite/first-visit-preload.ts';
import { LOCAL_ANON_KEY, LOCAL_API_URL } from './src/platform/api-defaults.ts';
import { schoolLoginHeaders } from './src/features/auth/api/school-login-url.ts';
import { firstVisitRequests } from './src/app/first-visit-requests.ts';
import { LCP_FRAME_KEY, LCP_HINTS_KEY, LCP_SHELL_ID } from './src/platform/first-visit/lcp-hint.ts';

/**
 * supabase-js builds its storage, functions and auth clients up front, which would put storage-js,
 * functions-js and auth-js in every page's first download. Only the imports made by supabase-js
 * itself are given the lazy stand-ins (src/platform/first-visit/stand-ins/: storage.ts, functions.ts, auth.ts);
 * their own dynamic imports of the packages resolve to the real ones, in a chunk loaded on the first
 * call (auth-js: once the page has settled, or at once without a usable stored session).
 */
function lazySupabaseClients(): Plugin {
  const standIns: Record<string, string> = {
    '@supabase/storage-js': path.resolve(import.meta.dirname, 'src/platform/first-visit/stand-ins/storage.ts'),
    '@supabase/functions-js': path.resolve(import.meta.dirname, 'src/platform/first-visit/stand-ins/functions.ts'),
    '@supabase/auth-js': path.resolve(import.meta.dirname, 'src/platform/first-visit/stand-ins/auth.ts'),
  };
  return {
    name: 'lazy-supabase-clients',
    enforce: 'pre',
    resolveId(source, importer) {
      if (standIns[source] && importer && /[\\/]@supabase[\\/]supabase-js[\\/]/.test(importer)) return standIns[source];
      return null;
    },
  };
}

/** Opens the connection to the API while the JS downloads: every page's data comes from there. */
function preconnectApi(apiUrl: string): Plugin {
  const origin = new URL(apiUrl).origin;
  return {
    name: 'preconnect-api',
    transformIndexHtml: () => [
      { tag: 'link', attrs: { rel: 'preconnect', href: origin, crossorigin: '' }, injectTo: 'head' },
    ],
  };
}

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
  const src = (file: string) => path.resolve(import.meta.dirname, 'src', file);
  const moduleFile = (file: string) => (file.startsWith('@') ? path.resolve(import.meta.dirname, 'node_modules', file) : src(file));
  const firstVisit = firstVisitRequests(apiUrl);
  return {
    plugins: [
      lazySupabaseClients(),
      react(),
      tailwindcss(),
      preconnectApi(apiUrl),
      firstVisitPreloadPlugin({
        sessionModules: [src('platform/supabase.ts'), src('app/route-prefetch.ts')],
        signedInRoutes: firstVisit.routes.map((route) => ({ ...route, modules: route.modules.map(moduleFile) })),
        sessionRequests: firstVisit.session,
        loginModule: src('app/routes/auth.tsx'),
        schoolLoginRequest: firstVisit.schoolLogin,
        // The same storage key as src/platform/api-config.ts's AUTH_STORAGE_KEY (supabase-js's default).
        storageKey: `sb-${new URL(apiUrl).hostname.split('.')[0]}-auth-token`,
        // src/app/router.tsx's one-segment routes other than /:slug.
        reservedPaths: ['auth', 'profile', 'checkout', 'admin', 'acesso', 'descadastrar'],
        headers: schoolLoginHeaders(anonKey),
        lcpHintsKey: LCP_HINTS_KEY,
        lcpFrameKey: LCP_FRAME_KEY,
        lcpShellId: LCP_SHELL_ID,
      }),
      securityHeadersPlugin(apiUrl),
      // After the security headers: its answers carry them too.
      brotliPreviewPlugin(),
    ],
    resolve: {
      alias: [
        { find: '@', replacement: path.resolve(import.meta.dirname, 'src') },
        // Realtime is never used: a stand-in keeps it out of the download (src/platform/first-visit/stand-ins/realtime.ts).
        { find: '@supabase/realtime-js', replacement: path.resolve(import.meta.dirname, 'src/platform/first-visit/stand-ins/realtime.ts') },
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
              { name: 'query', test: /\/node_modules\/@tanstack\/(react-query|query-core)\// },
            ],
          },
        },
      },
    },
  };
});
