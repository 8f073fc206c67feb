import path from 'node:path';
import { defineConfig, loadEnv, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { securityHeadersPlugin } from './scripts/vite/security-headers.ts';
import { sessionPreloadPlugin } from './scripts/vite/session-preload.ts';

/**
 * supabase-js builds its storage and functions clients up front, which would put storage-js and
 * functions-js in every page's first download. Only the imports made by supabase-js itself are given
 * the lazy stand-ins (src/lib/storage-lazy.ts, functions-lazy.ts); their own dynamic imports of the
 * packages resolve to the real ones, in a chunk loaded on the first storage or function call.
 */
function lazySupabaseClients(): Plugin {
  const standIns: Record<string, string> = {
    '@supabase/storage-js': path.resolve(import.meta.dirname, 'src/lib/storage-lazy.ts'),
    '@supabase/functions-js': path.resolve(import.meta.dirname, 'src/lib/functions-lazy.ts'),
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

export default defineConfig(({ mode }) => {
  // Same default as src/lib/supabase.ts.
  const apiUrl =
    loadEnv(mode, import.meta.dirname, 'VITE_').VITE_SUPABASE_URL ||
    process.env.VITE_SUPABASE_URL ||
    'http://localhost:54321';
  return {
    plugins: [
      lazySupabaseClients(),
      react(),
      tailwindcss(),
      preconnectApi(apiUrl),
      // The same storage key as src/lib/api-config.ts's AUTH_STORAGE_KEY (supabase-js's default).
      sessionPreloadPlugin(
        ['src/lib/supabase.ts', 'src/app/route-prefetch.ts'].map((f) => path.resolve(import.meta.dirname, f)),
        `sb-${new URL(apiUrl).hostname.split('.')[0]}-auth-token`,
      ),
      securityHeadersPlugin(apiUrl),
    ],
    resolve: {
      alias: {
        '@': path.resolve(import.meta.dirname, 'src'),
        // Realtime is never used: a stand-in keeps it out of the download (src/lib/realtime-disabled.ts).
        '@supabase/realtime-js': path.resolve(import.meta.dirname, 'src/lib/realtime-disabled.ts'),
      },
    },
    server: { host: 'localhost', port: 5173, strictPort: true },
    preview: { host: 'localhost', port: 4173 },
    build: {
      sourcemap: true,
      rolldownOptions: {
        output: {
          codeSplitting: {
            // The primitives every route's form uses would otherwise become nine tiny shared chunks
            // on the login page, each a request with its own overhead: one 'ui' chunk is ~2.4 KB
            // gzip smaller on the first route (npm run bench:bundle).
            groups: [{ name: 'ui', test: /\/src\/(components\/ui\/(input|label|card|form-field|storage-image)|lib\/(utils|image|api-config))\.tsx?$|\/node_modules\/clsx\// }],
          },
        },
      },
    },
  };
});
