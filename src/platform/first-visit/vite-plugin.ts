// The first visit's build (docs/first-visit.md): vite.config.ts's one door into this module.
// What a first visit needs is known from the URL and the device's storage before any JavaScript has
// run, so a tiny inline script in the HTML asks for it while the entry chunk downloads, instead of
// after the entry has downloaded, run and rendered:
// - a signed-in visit (a session stored on this device): supabase-js's chunk and the route data
//   loaders', with what they import, and the page's own chunks (layout and page, by path: the home, a
//   course, a lesson), so the whole route arrives in one wave instead of entry → session → layout →
//   page. The signed-out login page must not download them (issue 12's first-route budget), so they
//   cannot be a static modulepreload;
//   and, while the stored access token has at least 30 s left, the data every signed-in page waits
//   for (the profile with its school, the roles) and the page's own (the home's catalog, a course's
//   outline, a lesson's content and quiz), with the account's token;
// - a school's login page (/{slug}, signed out): the page's chunks, and the school's name, colours
//   and banner, with the anon key;
// - the image this path painted largest last time (./lcp-hint.ts), preloaded at high priority and by
//   CORS, as StorageImage asks for it, and painted where it was (at the same viewport width) behind
//   the app until the app's own copy has loaded; on a lesson, the account's frame of its video where
//   it was left.
// The pages and their requests are the app's (src/app/first-visit-pages.ts); the answers wait in
// window.__firstVisit, where the app's own identical requests take them (./answers.ts). The script's
// text never changes (the file names, URLs and keys travel in data- attributes), so the
// Content-Security-Policy allows exactly it by hash (scripts/vite/security-headers.ts).
// The same build hands supabase-js its lazy stand-ins (./stand-ins/) and opens the API's connection early.
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Plugin, Rollup } from 'vite';
import { LCP_FRAME_KEY, LCP_HINTS_KEY, LCP_SHELL_ID, LCP_VIDEO_BOX_KEY } from './lcp-hint.ts';

type OutputBundle = Rollup.OutputBundle;
type OutputChunk = Rollup.OutputChunk;

/**
 * [url, body]: a GET when the body is '', else a POST of that JSON. Placeholders: {user} the account's
 * id, {1}, {2}… the path's parameters, {slug} the login page's school, and the page's values.
 */
export type RequestTemplate = [url: string, body: string];

/** A value read from an earlier answer: which (-1 the profile, else the index of one of the page's
 * requests), where in its JSON (a path; a list stands for its first row), and the pattern it must
 * match (case-insensitive) to be used. A request that needs it starts when it is known, or never. */
export type AnswerValue = [from: number, path: string, pattern: string];

/** An image the page will paint largest, preloaded once the value it names is known (a lesson's video
 * poster): [srcset, sizes, 'video-box'], the srcset with {value}s, both exactly as the page's <img> has
 * them; painted behind the app where a lesson's video was laid out at this width (./lcp-hint.ts's
 * LCP_VIDEO_BOX_KEY), unless something is painted there already. */
export type ImageTemplate = [srcset: string, sizes: string, paintAt: 'video-box'];

/** A signed-in page a first visit prepares, under its router path ('/course/:courseId'). */
export interface FirstVisitPage {
  /** The page's own modules (under src/, or a package's file under node_modules/ when it starts
   * with @), whose chunks are preloaded with the session's. */
  modules: string[];
  /** The requests the page's loader makes first, in its order ({1}, {2}: the path's parameters). */
  requests: RequestTemplate[];
  values?: Record<string, AnswerValue>;
  /** Each waits for one of the page's values; without it (or when it does not match), nothing. */
  images?: ImageTemplate[];
}

/** What the app declares (src/app/first-visit-pages.ts): the pages, and what every visit shares. */
export interface FirstVisitPages {
  /** Every signed-in page's requests, the profile first (its answer fills {school}). */
  session: RequestTemplate[];
  /** Source files (under src/) whose chunks every signed-in visit needs first. */
  sessionModules: string[];
  /** By router path; the first whose pattern matches wins. */
  pages: Record<string, FirstVisitPage>;
  /** The /{slug} login page: its source file and its request. */
  loginModule: string;
  schoolLogin: RequestTemplate;
  /** One-segment paths that are not a school's login page. */
  reservedPaths: string[];
  /** The anon key's headers, as supabase-js sends them; the session's requests send its token instead. */
  headers: Record<string, string>;
}

/** The path's pattern: its parameters are uuids (nothing else reaches a URL), a trailing slash allowed. */
export const pathPattern = (routePath: string) =>
  routePath === '/' ? '^/$' : `^${routePath.replace(/:\w+/g, '([0-9a-fA-F-]{36})')}/?$`;

/** Where supabase-js keeps the session for this API (src/platform/api-config.ts's AUTH_STORAGE_KEY). */
export const authStorageKey = (apiUrl: string) => `sb-${new URL(apiUrl).hostname.split('.')[0]}-auth-token`;

export const FIRST_VISIT_SCRIPT =
  'try{var d=document.currentScript.dataset,p=location.pathname,F=window.__firstVisit={};' +
  'function add(a){var l=document.createElement("link");for(var k in a)l.setAttribute(k,a[k]);document.head.appendChild(l)}' +
  'function pre(s){s.split(" ").forEach(function(h){add({rel:"modulepreload",crossorigin:"",href:h})})}' +
  // A template's {name}s from v (in a body, as JSON string content); `ask` starts the request and
  // files it under ./answers.ts's key.
  'function fill(s,v,j){return s.replace(/\\{(\\w+)\\}/g,function(x,k){return j?JSON.stringify(String(v[k])).slice(1,-1):v[k]})}' +
  'function ask(q,v,a){var u=fill(q[0],v),b=fill(q[1],v,1),h=JSON.parse(d.headers),o={headers:h};if(a)h.Authorization=a;' +
  'if(b){h["Content-Type"]="application/json";o.method="POST";o.body=b}' +
  'var f=fetch(u,o);F[(b?"POST ":"GET ")+u+" "+b]={auth:h.Authorization,response:f};return f}' +
  'var m=JSON.parse(localStorage.getItem(d.lcp)||"{}")[p];' +
  // An image where the page painted it last time (box b, at this same viewport width only), behind
  // the app (./lcp-hint.ts); by CORS, as the preload, so that it takes the preload's answer.
  'function paint(b,src,set,sizes){if(!b||b[0]!==innerWidth)return;var I=document.createElement("img"),S=I.style;I.id=d.shell;I.alt="";' +
  'I.setAttribute("aria-hidden","true");I.setAttribute("fetchpriority","high");I.crossOrigin="";if(set){I.sizes=sizes;I.srcset=set}else I.src=src;' +
  'S.position="absolute";S.top=b[1]+"px";S.left=b[2]+"px";S.width=b[3]+"px";S.height=b[4]+"px";S.objectFit=b[5];S.objectPosition=b[6];' +
  'S.borderRadius=b[7]||"";S.backgroundColor=b[8]||"";S.zIndex="-1";S.pointerEvents="none";document.documentElement.appendChild(I)}' +
  // Only the image painted for the account stored now (a hint of another account, on a shared
  // device, may be another school's banner), or one painted signed out on a signed-out visit.
  'var t=JSON.parse(localStorage.getItem(d.key)),u=t&&t.user&&t.user.id;' +
  'if(m&&(m[3]||null)===(u||null)){add({rel:"preload",as:"image",fetchpriority:"high",crossorigin:"",imagesrcset:m[0],imagesizes:m[1]});paint(m[2],"",m[0],m[1])}' +
  'if(t){pre(d.session);var r=JSON.parse(d.routes),g=null,q=[],x={};' +
  'for(var i=0;i<r.length;i++)if(g=new RegExp(r[i][0]).exec(p)){pre(r[i][1]);q=r[i][2].concat(r[i][4]);x=r[i][3];break}' +
  // This account's frame of the lesson's video where it was left, at this viewport width (a data: URL).
  'var f=u&&JSON.parse(localStorage.getItem(d.frame+u+":"+p)||"null");f=f&&f[innerWidth];if(f)paint(f[1],f[0]);' +
  'if(u&&t.access_token&&t.expires_at*1e3>Date.now()+3e4){var a="Bearer "+t.access_token,v={user:u},s=JSON.parse(d.signed),R=[],D={};' +
  'for(i=1;g&&i<g.length;i++)v[i]=g[i];' +
  'var P=ask(s[0],v,a);for(i=1;i<s.length;i++)ask(s[i],v,a);' +
  // A request with one of the route's values ({school}, {video}) waits for the answer it is read
  // from (-1: the profile's), through a clone, before the app reads the body; without such a value,
  // or when it does not match its pattern, it is not asked. An image ({poster}) is preloaded then.
  'q.forEach(function(c,k){var w=(c.join("").match(/\\{\\w+\\}/g)||[]).map(function(z){return z.slice(1,-1)}).filter(function(z){return x[z]})[0];' +
  'if(w)(D[w]=D[w]||[]).push(c);else R[k]=ask(c,v,a)});' +
  'Object.keys(D).forEach(function(n){var f=x[n],z=f[0]<0?P:R[f[0]];if(z)z.then(function(y){return y.ok?y.clone().json():null}).then(function(y){' +
  'f[1].split(".").forEach(function(k){if(Array.isArray(y)&&!/^\\d+$/.test(k))y=y[0];y=y==null?y:y[k]});' +
  'if(typeof y=="string"&&new RegExp(f[2],"i").test(y)){v[n]=y;D[n].forEach(function(c){' +
  'if(c[2]){var S=fill(c[0],v),B=JSON.parse(localStorage.getItem(d.vbox)||"{}")[innerWidth];' +
  'add({rel:"preload",as:"image",fetchpriority:"high",crossorigin:"",imagesrcset:S,imagesizes:c[1]});if(B&&!document.getElementById(d.shell))paint(B,"",S,c[1])}' +
  'else ask(c,v,a)})}})["catch"](function(){})})}}' +
  'else{var n=/^\\/([^/]+)\\/?$/.exec(p);' +
  'if(n&&d.reserved.split(" ").indexOf(n[1])<0){pre(d.login);ask(JSON.parse(d.school),{slug:encodeURIComponent(decodeURIComponent(n[1]))})}}' +
  '}catch(e){}';

/** The CSP source that allows the script above and nothing else. */
export const FIRST_VISIT_SCRIPT_HASH = `'sha256-${createHash('sha256').update(FIRST_VISIT_SCRIPT).digest('base64')}'`;

const escapeAttribute = (value: string) => value.replaceAll('&', '&amp;').replaceAll('"', '&quot;');

/** The chunk holding `module` and every chunk it imports statically, as file names. */
function chunkWithImports(bundle: OutputBundle, module: string): string[] {
  const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
  const root = chunks.find((c) => c.moduleIds.some((id) => path.resolve(id) === module));
  if (!root) throw new Error(`first-visit: no chunk for ${module}`);
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

/** A page's images, each checked to wait for one of its values (the script would never preload it). */
function imagesOf(page: FirstVisitPage): ImageTemplate[] {
  for (const [srcset] of page.images ?? []) {
    const names = [...srcset.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    if (!names.some((n) => page.values?.[n])) throw new Error(`first-visit: the image ${srcset} waits for none of the page's values`);
  }
  return page.images ?? [];
}

/** The inline script's data- attributes; `hrefs` names the chunks of modules (as the app names them), to preload. */
export function firstVisitData(apiUrl: string, app: FirstVisitPages, hrefs: (modules: string[]) => string): Record<string, string> {
  return {
    'data-key': authStorageKey(apiUrl),
    'data-session': hrefs(app.sessionModules),
    'data-routes': JSON.stringify(
      Object.entries(app.pages).map(([routePath, p]) => [pathPattern(routePath), hrefs(p.modules), p.requests, p.values ?? {}, imagesOf(p)]),
    ),
    'data-signed': JSON.stringify(app.session),
    'data-login': hrefs([app.loginModule]),
    'data-school': JSON.stringify(app.schoolLogin),
    'data-reserved': app.reservedPaths.join(' '),
    'data-headers': JSON.stringify(app.headers),
    'data-lcp': LCP_HINTS_KEY,
    'data-frame': LCP_FRAME_KEY,
    'data-shell': LCP_SHELL_ID,
    'data-vbox': LCP_VIDEO_BOX_KEY,
  };
}

/** The HTML's inline script, with the chunks of this build. */
function inlineScript(apiUrl: string, app: FirstVisitPages, srcDir: string): Plugin {
  const file = (m: string) => (m.startsWith('@') ? path.resolve(srcDir, '../node_modules', m) : path.resolve(srcDir, m));
  let base = '/';
  return {
    name: 'first-visit-inline-script',
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
        const hrefs = (modules: string[]) => [...new Set(modules.flatMap((m) => chunkWithImports(bundle, file(m))))].map((f) => base + f).join(' ');
        const attrs = firstVisitData(apiUrl, app, hrefs);
        const tag = `<script ${Object.entries(attrs).map(([k, v]) => `${k}="${escapeAttribute(v)}"`).join(' ')}>${FIRST_VISIT_SCRIPT}</script>`;
        // Right after the title, before the entry and the stylesheet: a classic script after a
        // stylesheet waits for it to download before it runs, and with it everything it starts.
        // The stylesheet is asked for first all the same, by a preload that blocks nothing: every
        // paint waits for it (the early image above all), and behind the script it queued after the
        // forty-odd chunks the script asks for.
        if (!html.includes('</title>')) throw new Error('first-visit: index.html has no <title>');
        const styles = [...html.matchAll(/<link rel="stylesheet" crossorigin href="([^"]+)">/g)].map((m) => `<link rel="preload" as="style" crossorigin href="${m[1]}">`);
        if (!styles.length) throw new Error('first-visit: no stylesheet in index.html');
        return html.replace('</title>', () => `</title>\n    ${[...styles, tag].join('\n    ')}`); // a function: `$&` in the data is not a pattern
      },
    },
  };
}

/**
 * supabase-js builds its storage, functions, auth and realtime clients up front, which would put
 * storage-js, functions-js, auth-js and realtime-js in every page's first download. The imports made by
 * supabase-js itself are given the stand-ins of ./stand-ins/; their own dynamic imports of the packages
 * resolve to the real ones, in a chunk loaded on the first call (auth-js: once the page has settled,
 * or at once without a usable stored session). Realtime is never used: its stand-in is all there is.
 * Only the build and the dev server use them; tests and scripts in Node keep the real packages.
 */
function supabaseStandIns(): Plugin {
  const standIn = (name: string) => path.resolve(import.meta.dirname, 'stand-ins', name);
  const lazy: Record<string, string> = {
    '@supabase/storage-js': standIn('storage.ts'),
    '@supabase/functions-js': standIn('functions.ts'),
    '@supabase/auth-js': standIn('auth.ts'),
  };
  return {
    name: 'first-visit-supabase-stand-ins',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === '@supabase/realtime-js') return standIn('realtime.ts');
      if (lazy[source] && importer && /[\\/]@supabase[\\/]supabase-js[\\/]/.test(importer)) return lazy[source];
      return null;
    },
  };
}

/** Opens the connection to the API while the JS downloads: every page's data comes from there. */
function preconnectApi(apiUrl: string): Plugin {
  const origin = new URL(apiUrl).origin;
  return {
    name: 'first-visit-preconnect',
    transformIndexHtml: () => [{ tag: 'link', attrs: { rel: 'preconnect', href: origin, crossorigin: '' }, injectTo: 'head' }],
  };
}

/** The first visit's part of the build: `app` is src/app/first-visit-pages.ts's, `srcDir` the app's src/. */
export function firstVisitPlugins({ apiUrl, app, srcDir }: { apiUrl: string; app: FirstVisitPages; srcDir: string }): Plugin[] {
  return [supabaseStandIns(), preconnectApi(apiUrl), inlineScript(apiUrl, app, srcDir)];
}
