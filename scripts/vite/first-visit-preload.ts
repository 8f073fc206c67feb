// What a first visit needs is known from the URL and the device's storage before any JavaScript has
// run, so a tiny inline script in the HTML asks for it while the entry chunk downloads, instead of
// after the entry has downloaded, run and rendered:
// - a signed-in visit (a session stored on this device): supabase-js's chunk and the route data
//   loaders' (src/app/route-prefetch.ts), with what they import, and the page's own chunks (layout
//   and page, by path: the home, a course, a lesson), so the whole route arrives in one wave instead of
//   entry → session → layout → page. The signed-out login page must not download them (issue 12's
//   first-route budget), so they cannot be a static modulepreload;
//   and, while the stored access token has at least 30 s left, the account's profile (with its school)
//   and roles (the requests of src/lib/session-urls.ts; src/lib/session.ts takes the answers from
//   window.__sessionPreload), which every signed-in page waits for before it shows anything;
// - a school's login page (/{slug}, signed out): the page's chunks, and the school's name, colours
//   and banner (the request of src/features/auth/api/school-login-url.ts; the app takes the answer
//   from window.__schoolLogin instead of asking again);
// - the image this path painted largest last time (src/lib/lcp-hint.ts), preloaded at high priority.
// Its text never changes (the file names, URLs and keys travel in data- attributes), so the
// Content-Security-Policy allows exactly it by hash (security-headers.ts).
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Plugin, Rollup } from 'vite';

type OutputBundle = Rollup.OutputBundle;
type OutputChunk = Rollup.OutputChunk;

export const FIRST_VISIT_SCRIPT =
  'try{var d=document.currentScript.dataset,p=location.pathname;' +
  'function add(a){var l=document.createElement("link");for(var k in a)l.setAttribute(k,a[k]);document.head.appendChild(l)}' +
  'function pre(s){s.split(" ").forEach(function(h){add({rel:"modulepreload",crossorigin:"",href:h})})}' +
  'var m=JSON.parse(localStorage.getItem(d.lcp)||"{}")[p];' +
  'if(m)add({rel:"preload",as:"image",fetchpriority:"high",imagesrcset:m[0],imagesizes:m[1]});' +
  'var t=JSON.parse(localStorage.getItem(d.key));' +
  'if(t){pre(d.session);var r=JSON.parse(d.routes);' +
  'for(var i=0;i<r.length;i++)if(new RegExp(r[i][0]).test(p)){pre(r[i][1]);break}' +
  'var u=t.user&&t.user.id;' +
  'if(u&&t.access_token&&t.expires_at*1e3>Date.now()+3e4){var h=JSON.parse(d.headers);h.Authorization="Bearer "+t.access_token;' +
  'window.__sessionPreload={userId:u,profile:fetch(d.profile+u,{headers:h}),roles:fetch(d.roles+u,{headers:h})}}}' +
  'else{var s=/^\\/([^/]+)\\/?$/.exec(p);' +
  'if(s&&d.reserved.split(" ").indexOf(s[1])<0){pre(d.login);var n=decodeURIComponent(s[1]);' +
  'window.__schoolLogin={slug:n,response:fetch(d.school+encodeURIComponent(n),{headers:JSON.parse(d.headers)})}}}' +
  '}catch(e){}';

/** The CSP source that allows the script above and nothing else. */
export const FIRST_VISIT_SCRIPT_HASH = `'sha256-${createHash('sha256').update(FIRST_VISIT_SCRIPT).digest('base64')}'`;

const escapeAttribute = (value: string) => value.replaceAll('&', '&amp;').replaceAll('"', '&quot;');

/** The chunk holding `module` and every chunk it imports statically, as file names. */
function chunkWithImports(bundle: OutputBundle, module: string): string[] {
  const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
  const root = chunks.find((c) => c.moduleIds.some((id) => path.resolve(id) === module));
  if (!root) throw new Error(`first-visit-preload: no chunk for ${module}`);
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

export interface FirstVisitPreload {
  /** Source files whose chunks a signed-in visit needs first. */
  sessionModules: string[];
  /** A signed-in page's chunks by path: [pathname regex source, source files], the first match wins. */
  signedInRoutes: [string, string[]][];
  /** The source file of the /{slug} login route. */
  loginModule: string;
  /** Where supabase-js keeps the session (api-config.ts's AUTH_STORAGE_KEY). */
  storageKey: string;
  /** One-segment paths that are not a school's login page. */
  reservedPaths: string[];
  /** The school login request: URL prefix (the slug is appended) and headers (the anon key's; the
   * session's requests send the stored access token instead). */
  schoolUrlPrefix: string;
  schoolHeaders: Record<string, string>;
  /** The signed-in account's profile and roles requests: URL prefixes (the user id is appended). */
  profileUrlPrefix: string;
  rolesUrlPrefix: string;
  /** src/lib/lcp-hint.ts's LCP_HINTS_KEY. */
  lcpHintsKey: string;
}

export function firstVisitPreloadPlugin(options: FirstVisitPreload): Plugin {
  let base = '/';
  return {
    name: 'first-visit-preload',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle) return html;
        const bundle = ctx.bundle;
        // The entry's own static imports are preloaded by Vite already; repeating them is harmless.
        const hrefs = (modules: string[]) => [...new Set(modules.flatMap((m) => chunkWithImports(bundle, m)))].map((f) => base + f).join(' ');
        const attrs: Record<string, string> = {
          'data-key': options.storageKey,
          'data-session': hrefs(options.sessionModules),
          'data-routes': JSON.stringify(options.signedInRoutes.map(([pattern, modules]) => [pattern, hrefs(modules)])),
          'data-login': hrefs([options.loginModule]),
          'data-reserved': options.reservedPaths.join(' '),
          'data-school': options.schoolUrlPrefix,
          'data-profile': options.profileUrlPrefix,
          'data-roles': options.rolesUrlPrefix,
          'data-headers': JSON.stringify(options.schoolHeaders),
          'data-lcp': options.lcpHintsKey,
        };
        const tag = `<script ${Object.entries(attrs).map(([k, v]) => `${k}="${escapeAttribute(v)}"`).join(' ')}>${FIRST_VISIT_SCRIPT}</script>`;
        // Right after the title, before the entry and the stylesheet: a classic script after a
        // stylesheet waits for it to download before it runs, and with it everything it starts.
        if (!html.includes('</title>')) throw new Error('first-visit-preload: index.html has no <title>');
        return html.replace('</title>', () => `</title>\n    ${tag}`); // a function: `$&` in the data is not a pattern
      },
    },
  };
}
