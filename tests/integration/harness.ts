// Starts a fresh, seeded local-supabase for one test file and hands out supabase-js clients.
import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { startServer, type RunningServer } from '../../local-supabase/server.ts';
import { LOCAL_ANON_KEY, LOCAL_SERVICE_ROLE_KEY, type AuthRateLimits, type TlsListenerConfig } from '../../local-supabase/config.ts';
import { withDb } from './global-setup.ts';

export const ANON_KEY = LOCAL_ANON_KEY;
export const SERVICE_ROLE_KEY = LOCAL_SERVICE_ROLE_KEY;
/** Password of every seeded account. */
export const SEED_PASSWORD = 'senha123';

export interface TestBackend {
  server: RunningServer;
  url: string;
  /** A client with only the public anon key (a signed-out visitor, or an attacker with the key). */
  anon(): SupabaseClient;
  /** A client with the service role key (what edge functions use). */
  service(): SupabaseClient;
  /** A client signed in with email and password (seeded accounts use SEED_PASSWORD). */
  signIn(email: string, password?: string): Promise<SupabaseClient>;
  stop(): Promise<void>;
}

export interface TestBackendOptions {
  functionsDir?: string;
  /** Function secrets over supabase/functions/.env (e.g. ASAAS_SANDBOX_URL of a fake Asaas). */
  functionSecrets?: Record<string, string>;
  /** Receives every log line, function output included. */
  log?: (line: string) => void;
  /**
   * GoTrue's per-IP limits. Every test signs in from 127.0.0.1, so by default there are none;
   * 'config' keeps supabase/config.toml's (the platform's) values.
   */
  authRateLimits?: AuthRateLimits | 'config';
  /** New image renders one address may start a minute; every test renders from 127.0.0.1, so none by default. */
  renderMissesPerMinute?: number;
  /** Scheduled jobs (pg_cron) run only when the test calls `server.jobs.tick()`, unless 'run'. */
  jobs?: 'run' | 'manual';
  /** Also listen over HTTPS with HTTP/2 (config.tls); `url` is then that listener's. */
  tls?: TlsListenerConfig;
  /** A project folder of the test's own: its supabase/config.toml is read instead of this project's. */
  rootDir?: string;
  /**
   * A data folder of the test's own (storage files, Deno's cache), as `npm start` keeps .local-supabase/;
   * by default a temporary one. The test removes it.
   */
  dataDir?: string;
}

const NO_RATE_LIMITS: AuthRateLimits = { signInSignUps: 0, tokenRefresh: 0, tokenVerifications: 0 };

export async function startTestBackend(options: TestBackendOptions = {}): Promise<TestBackend> {
  const databaseUrl = process.env.DATABASE_URL || null;
  let dbUrl: string | null = null;
  let dropDb: (() => Promise<void>) | null = null;
  let snapshot: Blob | undefined;
  if (databaseUrl) {
    const name = `ls_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create database ${name} template ${inject('templateDb')}`);
    await admin.end();
    dbUrl = withDb(databaseUrl, name);
    dropDb = async () => {
      const c = new pg.Client({ connectionString: databaseUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  } else {
    snapshot = new Blob([await readFile(inject('snapshotPath'))]);
  }
  const server = await startServer(
    {
      port: 0,
      databaseUrl: dbUrl,
      ...(options.functionsDir ? { functionsDir: options.functionsDir } : {}),
      ...(options.functionSecrets ? { functionSecrets: options.functionSecrets } : {}),
      ...(options.authRateLimits === 'config' ? {} : { authRateLimits: options.authRateLimits ?? NO_RATE_LIMITS }),
      renderMissesPerMinute: options.renderMissesPerMinute ?? 0,
      ...(options.tls ? { tls: options.tls } : {}),
      ...(options.rootDir ? { rootDir: options.rootDir } : {}),
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    },
    { fresh: !options.dataDir, snapshot, quiet: true, log: options.log, jobs: options.jobs ?? 'manual' },
  );
  const make = (key: string) =>
    createClient(server.url, key, { auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } });
  return {
    server,
    url: server.url,
    anon: () => make(ANON_KEY),
    service: () => make(SERVICE_ROLE_KEY),
    async signIn(email, password = SEED_PASSWORD) {
      const client = make(ANON_KEY);
      const { error } = await client.auth.signInWithPassword({ email, password });
      if (error) throw new Error(`sign-in of ${email} failed: ${error.message}`);
      return client;
    },
    async stop() {
      await server.close();
      await dropDb?.();
    },
  };
}
