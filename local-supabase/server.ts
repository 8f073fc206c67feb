// The local backend: one HTTP server on loopback that speaks Supabase's protocols over one Postgres.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import { readFileSync } from 'node:fs';
import type { TLSSocket } from 'node:tls';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { configFromEnv, type LocalSupabaseConfig } from './config.ts';
import { openDatabase } from './db/open.ts';
import { CORS_HEADERS, HttpError, sendJson, type Handler, type ServerContext } from './http.ts';
import { createRestHandler } from './rest/index.ts';
import { createAuthHandler } from './auth/index.ts';
import { createStorageHandler } from './storage/index.ts';
import { createFunctionsHandler } from './functions/index.ts';
import { createInboxHandler } from './mail/inbox.ts';
import { Mailbox } from './mail/mailbox.ts';
import { startSmtpListener, type SmtpListener } from './mail/smtp-listener.ts';
import { rebaseSeededUrls, uploadSeedFiles } from './seed-files.ts';
import { startScheduler, type Scheduler } from './jobs/scheduler.ts';

export interface StartOptions {
  /** A new in-memory database (and a temporary storage folder), migrated and seeded. */
  fresh?: boolean;
  seed?: boolean;
  /** Start from this PGlite snapshot instead of migrating from scratch (tests). */
  snapshot?: Blob;
  quiet?: boolean;
  /** Where log lines go instead of the console (tests read what functions print). */
  log?: (line: string) => void;
  /**
   * pg_cron's jobs and pg_net's requests (jobs/scheduler.ts): 'run' on the clock (default), or
   * 'manual': only when `jobs.tick()` is called, so a test decides when a schedule fires.
   */
  jobs?: 'run' | 'manual';
}

export interface RunningServer {
  /** Where browsers reach it: the HTTPS listener's URL when config.tls is set. */
  url: string;
  port: number;
  /** Where the inbox takes SMTP (loopback; the functions get it as their SMTP_* secrets). */
  smtp: { host: string; port: number };
  ctx: ServerContext;
  /** The scheduled jobs (pg_cron) and outgoing requests (pg_net). */
  jobs: Scheduler;
  close(): Promise<void>;
}

export async function startServer(configIn: Partial<LocalSupabaseConfig> = {}, options: StartOptions = {}): Promise<RunningServer> {
  const config = configFromEnv(configIn);
  const log = options.log ?? (options.quiet ? () => {} : (m: string) => console.log(`[local-supabase] ${m}`));
  const dataDir = options.fresh ? null : config.dataDir;
  let tempDir: string | null = null;
  let storageDir: string;
  if (dataDir) {
    storageDir = path.join(dataDir, 'storage');
  } else {
    tempDir = await mkdtemp(path.join(os.tmpdir(), 'local-supabase-'));
    storageDir = path.join(tempDir, 'storage');
  }
  await mkdir(storageDir, { recursive: true });
  if (dataDir) await mkdir(dataDir, { recursive: true });

  const { engine, migration } = await openDatabase({
    dataDir,
    databaseUrl: config.databaseUrl,
    rootDir: config.rootDir,
    seed: options.seed,
    snapshot: options.snapshot,
  });
  if (migration.applied.length) log(`applied migrations: ${migration.applied.join(', ')}`);
  if (migration.seeded) log('applied seed.sql');

  const ctx: ServerContext = { config: { ...config, dataDir }, engine, storageDir, mailbox: new Mailbox(), log };
  let smtp: SmtpListener;
  try {
    smtp = await startSmtpListener(config, ctx.mailbox);
  } catch (e) {
    await engine.close().catch(() => {});
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
    throw e;
  }
  // The port really bound (config may say 0): the functions' SMTP_PORT.
  ctx.config.smtp = { ...config.smtp, port: smtp.port };
  const routes: [string, Handler & { close?: () => Promise<void> }][] = [
    ['/rest/v1', createRestHandler(ctx)],
    ['/auth/v1', createAuthHandler(ctx)],
    ['/storage/v1', createStorageHandler(ctx)],
    ['/functions/v1', createFunctionsHandler(ctx)],
    ['/inbox', createInboxHandler(ctx)],
  ];

  const server = createServer((req, res) => void dispatch(req, res));
  async function dispatch(req: IncomingMessage, res: ServerResponse) {
    // As the hosted platform's edge does (Cloudflare's CF-Connecting-IP, the gateway's X-Forwarded-For): the
    // address the request came from, whatever the client wrote (the database's per-address limits and the
    // functions read them).
    req.headers['cf-connecting-ip'] = req.headers['x-forwarded-for'] = req.socket.remoteAddress ?? '';
    try {
      if (req.method === 'OPTIONS') {
        res.writeHead(200, CORS_HEADERS);
        return res.end('ok');
      }
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname === '/health') return sendJson(res, 200, { status: 'ok' });
      for (const [prefix, handler] of routes) {
        if (url.pathname === prefix || url.pathname.startsWith(prefix + '/')) {
          return await handler(req, res, url.pathname.slice(prefix.length) || '/', url);
        }
      }
      sendJson(res, 404, { message: 'no route matched' });
    } catch (e) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (e instanceof HttpError) return sendJson(res, e.status, e.body, e.headers);
      log(`internal error on ${req.method} ${req.url}: ${(e as Error).stack ?? e}`);
      sendJson(res, 500, { code: '500', message: 'Internal server error' });
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  }).catch(async (e: unknown) => {
    await smtp.close();
    throw e;
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://localhost:${port}`;
  // The same routes over HTTPS and HTTP/2 (config.tls); the handlers use only what both APIs share.
  let secure: Http2SecureServer | null = null;
  const secureSockets = new Set<TLSSocket>(); // a browser keeps its HTTP/2 session open: closed by force
  if (config.tls) {
    const tls = config.tls;
    secure = createSecureServer({ cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile), allowHTTP1: true }, (req, res) =>
      void dispatch(req as unknown as IncomingMessage, res as unknown as ServerResponse),
    );
    secure.on('secureConnection', (socket: TLSSocket) => {
      secureSockets.add(socket);
      socket.once('close', () => secureSockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      secure!.once('error', reject);
      secure!.listen(tls.port, config.host, () => resolve());
    });
  }
  const publicUrl = secure ? `https://localhost:${(secure.address() as AddressInfo).port}` : url;
  // The port really bound (config may say 0): auth builds its e-mailed links and issuer from it.
  ctx.config.port = port;

  // A new database got the seed; a fresh start (new temporary storage) from a seeded snapshot or
  // template needs the seeded objects' bytes too.
  if (options.seed !== false && (migration.seeded || options.fresh)) {
    const count = await uploadSeedFiles(url, config.serviceRoleKey, path.join(config.rootDir, 'supabase'));
    await rebaseSeededUrls(engine, publicUrl);
    if (count) log(`uploaded ${count} seed files to storage`);
  }

  // What a hosted project keeps in Vault for its scheduled calls (supabase/migrations/*_email_schedule.sql).
  await engine.query(
    `insert into vault.secrets (name, secret) values ('project_url', $1), ('service_role_key', $2)
     on conflict (name) do update set secret = excluded.secret, updated_at = now()`,
    [url, config.serviceRoleKey],
  );
  const jobs = startScheduler(engine, { everyMs: options.jobs === 'manual' ? 0 : 1_000, log });

  let closing: Promise<void> | null = null;
  return {
    url: publicUrl,
    port,
    smtp: { host: smtp.host, port: smtp.port },
    ctx,
    jobs,
    close() {
      closing ??= (async () => {
        await jobs.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        if (secure) {
          const closed = new Promise<void>((resolve) => secure.close(() => resolve()));
          for (const socket of secureSockets) socket.destroy();
          await closed;
        }
        for (const [, h] of routes) await h.close?.().catch(() => {});
        await smtp.close();
        await engine.close().catch(() => {});
        if (tempDir) await rm(tempDir, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}

/** Closes `server` and exits once, on Ctrl+C or SIGTERM (and when `alsoOn` fires, e.g. stdin closing). */
export function stopOnSignal(server: RunningServer, alsoOn?: (stop: () => void) => void): void {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void server.close().finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  alsoOn?.(stop);
}
