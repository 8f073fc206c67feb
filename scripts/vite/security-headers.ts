// The built SPA's Content-Security-Policy and companion headers, derived from the API's origin.
// Shipped from one definition as a <meta> in index.html (any static host) and a `_headers` file in
// dist/ (Netlify, Cloudflare Pages read it; it adds frame-ancestors, which a <meta> cannot carry).
// `vite preview` serves dist/_headers too, so the end-to-end run sees what production would.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { FIRST_VISIT_SCRIPT_HASH } from '../../src/platform/first-visit/vite-plugin.ts';

/** Where the player's embeds come from: YouTube (and its no-cookie host) and Vimeo. */
const VIDEO_FRAMES = ['https://www.youtube.com', 'https://www.youtube-nocookie.com', 'https://player.vimeo.com'];

/**
 * The video host's origins (issue 39): the browser sends a lesson's file to its TUS endpoint and plays
 * the HLS from its CDN. VIDEO_HOST_ORIGINS at build time, space-separated (a hosted deploy with Bunny
 * Stream: `https://video.bunnycdn.com https://vz-xxxx.b-cdn.net`; a local build against the fake:
 * `http://127.0.0.1:54349`); unset, Bunny's upload endpoint.
 */
export function videoHostOrigins(value = process.env.VIDEO_HOST_ORIGINS): string[] {
  const list = (value ?? 'https://video.bunnycdn.com').split(/\s+/).filter(Boolean);
  return list.map((origin) => new URL(origin).origin);
}

export function contentSecurityPolicy(apiUrl: string, videoHosts: string[] = videoHostOrigins()): string {
  const api = new URL(apiUrl).origin;
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    // The YouTube embed needs its iframe API script (which loads the player's own scripts); the one
    // inline script is the first visit's (src/platform/first-visit/vite-plugin.ts), by hash.
    'script-src': ["'self'", FIRST_VISIT_SCRIPT_HASH, 'https://www.youtube.com'],
    // React and Radix set style attributes; sonner injects its stylesheet.
    'style-src': ["'self'", "'unsafe-inline'"],
    // Schools point course images at any https address (the URL tab of the course form); uploads and
    // avatars come from the API; previews of picked files are blob: and data: URLs.
    'img-src': ["'self'", 'data:', 'blob:', api, 'https:', ...videoHosts],
    'media-src': ["'self'", 'blob:', api, ...videoHosts],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", api, ...videoHosts],
    'frame-src': VIDEO_FRAMES,
    // hls.js plays adaptive streams from a blob: worker.
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

/** Headers for hosts that take them (the policy plus what a <meta> cannot say). */
export function securityHeaders(apiUrl: string): Record<string, string> {
  return {
    'Content-Security-Policy': `${contentSecurityPolicy(apiUrl)}; frame-ancestors 'none'`,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
  };
}

/** Adds the policy to the built index.html and writes dist/_headers, which `vite preview` then serves. */
export function securityHeadersPlugin(apiUrl: string): Plugin {
  return {
    name: 'security-headers',
    // The dev server's hot reload needs inline scripts and a WebSocket: only the build gets the policy.
    apply: (_config, env) => env.command === 'build' || env.isPreview === true,
    transformIndexHtml: () => [
      { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: contentSecurityPolicy(apiUrl) }, injectTo: 'head-prepend' },
    ],
    generateBundle() {
      const lines = Object.entries(securityHeaders(apiUrl)).map(([k, v]) => `  ${k}: ${v}`);
      this.emitFile({ type: 'asset', fileName: '_headers', source: `/*\n${lines.join('\n')}\n` });
    },
    configurePreviewServer(server) {
      const file = path.resolve(server.config.root, server.config.build.outDir, '_headers');
      if (!existsSync(file)) return;
      const headers = readFileSync(file, 'utf8')
        .split('\n')
        .map((line) => /^\s+([\w-]+):\s*(.+)$/.exec(line))
        .filter((m): m is RegExpExecArray => m !== null);
      server.middlewares.use((_req, res, next) => {
        for (const [, name, value] of headers) res.setHeader(name!, value!);
        next();
      });
    },
  };
}
