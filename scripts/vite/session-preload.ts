// A signed-in visit needs supabase-js before its first data request, but the signed-out login page
// must not download it (issue 12's first-route budget), so it cannot be a static modulepreload.
// This tiny inline script, run while the HTML is parsed, asks for supabase-js's chunk and the route
// data loaders' (src/app/route-prefetch.ts), with what they import, in parallel with the entry when a
// session is stored on this device, instead of after the entry has downloaded, run and rendered. Its text never changes (the file names travel in data-
// attributes), so the Content-Security-Policy allows exactly it by hash (security-headers.ts).
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Plugin, Rollup } from 'vite';

type OutputBundle = Rollup.OutputBundle;
type OutputChunk = Rollup.OutputChunk;

export const SESSION_PRELOAD_SCRIPT =
  'try{var s=document.currentScript.dataset;if(localStorage.getItem(s.key))s.href.split(" ").forEach(function(h){var l=document.createElement("link");l.rel="modulepreload";l.crossOrigin="";l.href=h;document.head.appendChild(l)})}catch(e){}';

/** The CSP source that allows the script above and nothing else. */
export const SESSION_PRELOAD_HASH = `'sha256-${createHash('sha256').update(SESSION_PRELOAD_SCRIPT).digest('base64')}'`;

/** The chunk holding `module` and every chunk it imports statically, as file names. */
function chunkWithImports(bundle: OutputBundle, module: string): string[] {
  const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
  const root = chunks.find((c) => c.moduleIds.some((id) => path.resolve(id) === module));
  if (!root) return [];
  const files = new Set<string>();
  const visit = (c: OutputChunk) => {
    if (files.has(c.fileName)) return;
    files.add(c.fileName);
    for (const name of c.imports) {
      const dep = bundle[name];
      if (dep?.type === 'chunk') visit(dep);
    }
  };
  visit(root);
  return [...files];
}

/** `modules`: source files whose chunks a signed-in visit needs first; `storageKey`: where
 * supabase-js keeps the session (api-config.ts's AUTH_STORAGE_KEY). */
export function sessionPreloadPlugin(modules: string[], storageKey: string): Plugin {
  let base = '/';
  return {
    name: 'session-preload',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle) return html;
        // The entry's own static imports are preloaded by Vite already; repeating them is harmless.
        const files = new Set<string>();
        for (const module of modules) {
          const chunks = chunkWithImports(ctx.bundle, module);
          if (chunks.length === 0) throw new Error(`session-preload: no chunk for ${module}`);
          for (const f of chunks) files.add(f);
        }
        const hrefs = [...files].map((f) => base + f);
        return [
          {
            tag: 'script',
            attrs: { 'data-key': storageKey, 'data-href': hrefs.join(' ') },
            children: SESSION_PRELOAD_SCRIPT,
            injectTo: 'head',
          },
        ];
      },
    },
  };
}
