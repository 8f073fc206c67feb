// `vite preview` compresses with gzip only, while the static hosts the README deploys to (Netlify,
// Cloudflare Pages) send Brotli to every browser that accepts it: ~13% fewer bytes for our scripts
// and stylesheets. The preview sends the built scripts and stylesheets the same way, so what
// `npm start`, the journeys and `npm run bench:lighthouse` download is what a phone would (issue 21).
// Caching is left as the preview has it (revalidated by ETag); only the encoding changes.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import type { Plugin } from 'vite';

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css' };

export function brotliPreviewPlugin(): Plugin {
  return {
    name: 'brotli-preview',
    apply: (_config, env) => env.isPreview === true,
    configurePreviewServer(server) {
      const assets = path.resolve(server.config.root, server.config.build.outDir, 'assets');
      // Built files never change under a running preview: each is compressed once.
      const compressed = new Map<string, { body: Buffer; etag: string; modified: string }>();
      server.middlewares.use((req, res, next) => {
        const name = /^\/assets\/([\w.-]+\.(?:js|css))$/.exec((req.url ?? '').split('?')[0]!)?.[1];
        if (
          !name ||
          (req.method !== 'GET' && req.method !== 'HEAD') ||
          !/\bbr\b/.test(String(req.headers['accept-encoding'] ?? ''))
        )
          return next();
        let file = compressed.get(name);
        if (!file) {
          const full = path.join(assets, name);
          let stat;
          try {
            stat = statSync(full);
          } catch {
            return next();
          }
          const body = brotliCompressSync(readFileSync(full), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
          file = { body, etag: `W/"br-${stat.size}-${stat.mtimeMs}"`, modified: stat.mtime.toUTCString() };
          compressed.set(name, file);
        }
        res.setHeader('Vary', 'Accept-Encoding');
        res.setHeader('Cache-Control', 'no-cache');
        res.setHeader('ETag', file.etag);
        res.setHeader('Last-Modified', file.modified);
        if (req.headers['if-none-match'] === file.etag) {
          res.statusCode = 304;
          return res.end();
        }
        res.setHeader('Content-Type', TYPES[path.extname(name)]!);
        res.setHeader('Content-Encoding', 'br');
        res.setHeader('Content-Length', file.body.length);
        res.end(req.method === 'HEAD' ? undefined : file.body);
      });
    },
  };
}
