// /functions/v1/{name}: runs supabase/functions/{name}/index.ts in real Deno and proxies to it, after
// verifying the JWT as Supabase's edge gateway does (unless config.toml sets verify_jwt = false).
import { existsSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { CORS_HEADERS, sendJson, type Handler, type ServerContext } from '../http.ts';
import { verifyJwt, type JwtKeys } from '../jwt.ts';
import { verifyJwtFor } from './config.ts';
import { entryOf, FunctionRunner } from './runner.ts';

// Supabase's function names: letters, digits, '-' and '_'; folders starting with '_' are shared code.
const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** The headers passed on to the function and back; HTTP/2's pseudo-headers (`:path`…) are not headers
 * of an HTTP/1.1 request (the function is reached over one), and its `:authority` is the Host. */
function forwardable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.has(k) && !k.startsWith(':')) out[k] = v;
  if (!out.host && typeof headers[':authority'] === 'string') out.host = headers[':authority'];
  return out;
}

/** The edge gateway's check: 401 `{msg}` for a missing, malformed or invalid token. */
async function checkJwt(req: IncomingMessage, keys: JwtKeys): Promise<string | null> {
  const header = req.headers.authorization;
  if (!header) return 'Error: Missing authorization header';
  const [scheme, token] = header.split(' ');
  if (scheme !== 'Bearer' || !token) return "Error: Auth header is not 'Bearer {token}'";
  try {
    await verifyJwt(token, keys);
    return null;
  } catch {
    return 'Invalid JWT';
  }
}

export function createFunctionsHandler(ctx: ServerContext): Handler & { close?: () => Promise<void> } {
  const runner = new FunctionRunner(ctx);
  const configToml = () => path.join(ctx.config.functionsDir, '..', 'config.toml');

  const handler: Handler & { close?: () => Promise<void> } = async (req, res, urlPath, url) => {
    const m = urlPath.match(/^\/([^/]+)(\/.*)?$/);
    const name = m?.[1] ?? '';
    if (!NAME.test(name) || !existsSync(entryOf(ctx.config.functionsDir, name))) {
      req.resume();
      return sendJson(res, 404, { code: 'NOT_FOUND', message: 'Requested function was not found' });
    }
    if (await verifyJwtFor(configToml(), name)) {
      const problem = await checkJwt(req, ctx.config);
      if (problem) {
        req.resume();
        return sendJson(res, 401, { msg: problem });
      }
    }

    let port: number;
    try {
      // Functions reach this server on loopback, whatever name the browser used, and on its plain
      // HTTP listener even when the browser came through the HTTPS one (config.tls).
      port = await runner.portFor(name, `http://127.0.0.1:${ctx.config.port}`);
    } catch (e) {
      ctx.log(`[functions] ${name} failed to start: ${(e as Error).message}`);
      req.resume();
      return sendJson(res, 503, { code: 'BOOT_ERROR', message: 'Function failed to start (please check logs)' });
    }
    await proxy(req, res, port, `/${name}${m?.[2] ?? ''}${url.search}`);
  };

  handler.close = () => runner.close();
  return handler;
}

/** Streams the request to the function's Deno server and its response back. */
function proxy(req: IncomingMessage, res: ServerResponse, port: number, target: string): Promise<void> {
  return new Promise((resolve) => {
    const upstream = httpRequest({ host: '127.0.0.1', port, method: req.method, path: target, headers: forwardable(req.headers) });
    upstream.on('response', (up) => {
      // Supabase leaves CORS to the function; we only fill in what it did not set (CORS on every endpoint).
      const headers: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(CORS_HEADERS)) headers[k.toLowerCase()] = v;
      Object.assign(headers, forwardable(up.headers));
      res.writeHead(up.statusCode ?? 502, headers);
      pipeline(up, res)
        .catch(() => res.destroy())
        .finally(resolve);
    });
    upstream.on('error', () => {
      // The process died mid-request (or refused the connection): the server stays up, the caller
      // gets Supabase's worker error, and the next call starts a new process.
      if (!res.headersSent) {
        req.resume();
        sendJson(res, 500, { code: 'WORKER_ERROR', message: 'Function exited due to an error (please check logs)' });
      } else {
        res.destroy();
      }
      resolve();
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
}
