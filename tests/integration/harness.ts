// The integration tests' one fixture: a fresh, seeded local-supabase per test file (or per describe
// block), and the callers a test needs, said at the top of the file instead of built in it.
//
//   const backend = useBackend();                         // started before the file's tests, stopped after
//   const service = backend.service();                   // the service-role client (what edge functions use)
//   const admin = backend.signedIn('adminDemo');          // a seeded account (rls/seed.ts EMAIL), signed in at start
//   const shop = useBackend({ fakeAsaas: { eventDelayMs: 20 } });   // the fake Asaas beside it: shop.asaas
//   const video = useBackend({ fakeBunny: true });                // the fake Bunny Stream beside it: video.bunny
//
//   inside tests and hooks:
//   await backend.signedInAccount({ role: 'SCHOOL_ADMIN' })   // a new confirmed account with its profile
//   await backend.twoFactorSession(email)                      // a session made aal2 with a TOTP factor
//   await backend.signIn(email, password?)                     // a session of its own (each call a new one)
//   backend.anon(), backend.jwtUser(), backend.sql(text, params), backend.engine, backend.url, backend.server
//
// useBackend registers its own beforeAll/afterAll where it is called: at file level for the whole
// file, inside a describe for a backend with other options (rate limits, a config of its own). The
// clients it hands out at file level (service(), signedIn) stand for clients made once the backend is up
// and work in tests and hooks; each is one per backend, shared by the file's tests as a beforeAll
// variable would be. Each backend starts from global-setup.ts's migrated and seeded snapshot (PGlite)
// or template database (PostgreSQL) in about a second, so files never share a database: tests change
// the seed's rows, and a file's tests may rely on what its earlier tests did.
// startTestBackend is the starter underneath, for tests whose subject is a backend's start or stop.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { startServer, type RunningServer } from '../../local-supabase/server.ts';
import type { Engine } from '../../local-supabase/db/engine.ts';
import { signJwt } from '../../local-supabase/jwt.ts';
import {
  LOCAL_ANON_KEY,
  LOCAL_JWT_SECRET,
  LOCAL_SERVICE_ROLE_KEY,
  type AuthRateLimits,
  type TlsListenerConfig,
} from '../../local-supabase/config.ts';
import { startFakeAsaas, type FakeAsaas } from '../../scripts/fake-asaas/server.ts';
import { demoAsaasAccounts } from '../../scripts/fake-asaas/demo-accounts.ts';
import { startFakeBunny, type FakeBunny } from '../../scripts/fake-bunny/server.ts';
import { FAKE_BUNNY_KEYS } from '../../scripts/fake-bunny/keys.ts';
import { uniqueEmail } from './auth-helpers.ts';
import { withDb } from './global-setup.ts';
import { turnOnTwoFactor, type Authenticator } from './mfa-helpers.ts';
import { EMAIL } from './rls/seed.ts';

export const ANON_KEY = LOCAL_ANON_KEY;
export const SERVICE_ROLE_KEY = LOCAL_SERVICE_ROLE_KEY;
/** Password of every seeded account. */
export const SEED_PASSWORD = 'senha123';
/** Password of the accounts createAccount makes, unless a test gives its own. */
export const TEST_PASSWORD = 'senha-teste-123';
/** Edge functions of the tests' own (echo, send-mail, boot-fail, ...), for `functionsDir`. */
export const FIXTURE_FUNCTIONS_DIR = path.join(import.meta.dirname, 'fixtures', 'functions');

export interface TestBackendOptions {
  functionsDir?: string;
  /** Function secrets over supabase/functions/.env (e.g. SITE_URL). */
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
  /** Environment variables set while the server starts, for settings it reads from there (ENABLE_IMAGE_TRANSFORMATION). */
  env?: Record<string, string>;
}

export interface BackendOptions extends TestBackendOptions {
  /** SQL run as the superuser once the backend is up, in order (fixture tables, buckets, probes). */
  sql?: string | string[];
  /**
   * The fake Asaas of scripts/fake-asaas beside the backend, with the demo schools' accounts: the
   * functions' ASAAS_SANDBOX_URL and ASAAS_PRODUCTION_URL point at it, its webhooks at the backend's
   * asaas-webhook. `eventDelayMs` as startFakeAsaas takes it.
   */
  fakeAsaas?: true | { eventDelayMs?: number };
  /**
   * The fake Bunny Stream of scripts/fake-bunny beside the backend (files in a temporary folder): the
   * functions get VIDEO_HOST=bunny and BUNNY_* pointing at it, its webhooks go to the backend's video-webhook.
   */
  fakeBunny?: true;
}

/** A seeded account, by its key in rls/seed.ts's EMAIL. */
export type SeedAccount = keyof typeof EMAIL;
export type Role = 'SUPER_ADMIN' | 'SCHOOL_ADMIN' | 'INSTRUCTOR' | 'STAFF';

export interface NewAccount {
  /** The address; by default uniqueEmail(prefix). */
  email?: string;
  prefix?: string;
  password?: string;
  /** The profile's name and school (user_metadata, as the sign-up form sends them); none when unset. */
  name?: string;
  school?: string;
  /** A user_roles row of this role in `school`. */
  role?: Role;
  /** false: an address its owner never confirmed. */
  confirmed?: boolean;
}

export interface Account {
  id: string;
  email: string;
  password: string;
}

export interface JwtUser {
  id: string;
  jwt: string;
  /** A client sending the JWT on every request. */
  client: SupabaseClient;
}

/** A started local-supabase and its clients (startTestBackend's; useBackend's Backend wraps one). */
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

/** What the helpers of auth-helpers.ts and storage-helpers.ts need of a backend (Backend or TestBackend). */
export type BackendLike = Pick<TestBackend, 'url' | 'server' | 'anon'>;

/** The backend of a test file (or describe block); see the top of this file. Ready in tests and hooks. */
export interface Backend {
  readonly url: string;
  readonly server: RunningServer;
  /** The database as its superuser (server.ctx.engine). */
  readonly engine: Engine;
  /** The rows of one statement run as the superuser. */
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** The service-role client (what edge functions use), one per backend; may be kept at file level. */
  service(): SupabaseClient;
  /** The fake Asaas of `fakeAsaas`; may be kept at file level. */
  readonly asaas: FakeAsaas;
  /** The fake Bunny Stream of `fakeBunny`; may be kept at file level. */
  readonly bunny: FakeBunny;
  /** A new client with only the anon key (a signed-out visitor, or an attacker with the key). */
  anon(): SupabaseClient;
  /** A client sending `jwt` (and `headers`) on every request, as a browser holding that token. */
  clientWithToken(jwt: string, headers?: Record<string, string>): SupabaseClient;
  /**
   * A seeded account's session, one per backend, signed in when the backend starts: call it at file or
   * describe level (before the backend starts) and use the client in tests and hooks.
   */
  signedIn(who: SeedAccount): SupabaseClient;
  /** A new session of its own, each call (seeded accounts use SEED_PASSWORD). */
  signIn(email: string, password?: string): Promise<SupabaseClient>;
  /** A new account made through the admin API, as staff or the platform make them. */
  createAccount(options?: NewAccount): Promise<Account>;
  /** createAccount, then signed in. */
  signedInAccount(options?: NewAccount): Promise<Account & { client: SupabaseClient }>;
  /** A new session of the account made aal2: a TOTP factor enrolled and verified (mfa-helpers.ts). */
  twoFactorSession(email: string, password?: string): Promise<{ client: SupabaseClient; factorId: string; app: Authenticator }>;
  /** A user with a JWT signed as GoTrue signs them and no account behind it (REST and storage fixtures). */
  jwtUser(options?: { id?: string; email?: string; expiresIn?: number }): Promise<JwtUser>;
}

const NO_RATE_LIMITS: AuthRateLimits = { signInSignUps: 0, tokenRefresh: 0, tokenVerifications: 0 };
const CLIENT_AUTH = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false };

function makeClient(url: string, key: string, headers?: Record<string, string>): SupabaseClient {
  return createClient(url, key, { auth: CLIENT_AUTH, ...(headers ? { global: { headers } } : {}) });
}

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
  const saved = Object.keys(options.env ?? {}).map((name) => [name, process.env[name]] as const);
  Object.assign(process.env, options.env);
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
  ).finally(() => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  return {
    server,
    url: server.url,
    anon: () => makeClient(server.url, ANON_KEY),
    service: () => makeClient(server.url, SERVICE_ROLE_KEY),
    async signIn(email, password = SEED_PASSWORD) {
      const client = makeClient(server.url, ANON_KEY);
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

/**
 * Stands for an object made once the backend is up (a client, the fake Asaas), so a file can name it
 * at the top: every property read goes to that object.
 */
function late<T extends object>(name: string, current: () => T | undefined): T {
  return new Proxy({} as T, {
    get(_, key) {
      const target = current();
      if (!target) throw new Error(`${name} is there once the backend started: use it inside tests and hooks`);
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** A fresh seeded backend for the tests of this file (or describe block): see the top of this file. */
export function useBackend(options: BackendOptions = {}): Backend {
  let started: TestBackend | undefined;
  let fake: FakeAsaas | undefined;
  let bunny: FakeBunny | undefined;
  let bunnyDir: string | undefined;
  let service: SupabaseClient | undefined;
  const sessions = new Map<SeedAccount, SupabaseClient | undefined>();
  const ready = () => {
    if (!started) throw new Error('the backend is there once it started: use it inside tests and hooks');
    return started;
  };

  beforeAll(async () => {
    const secrets: Record<string, string> = {};
    const asaasAccounts = demoAsaasAccounts('http://unset'); // webhooks set once the backend has a port
    if (options.fakeAsaas) {
      fake = await startFakeAsaas({ accounts: asaasAccounts, ...(options.fakeAsaas === true ? {} : options.fakeAsaas) });
      secrets.ASAAS_SANDBOX_URL = fake.apiUrl;
      secrets.ASAAS_PRODUCTION_URL = fake.apiUrl;
    }
    if (options.fakeBunny) {
      bunnyDir = await mkdtemp(path.join(os.tmpdir(), 'fake-bunny-'));
      bunny = await startFakeBunny({ ...FAKE_BUNNY_KEYS, dataDir: bunnyDir, webhookUrl: null });
      Object.assign(secrets, bunny.secrets);
    }
    started = await startTestBackend({ ...options, functionSecrets: { ...secrets, ...options.functionSecrets } });
    // The backend's port is known only now: point the fake's webhooks at it.
    if (fake) for (const [i, a] of demoAsaasAccounts(started.url).entries()) asaasAccounts[i]!.webhookUrl = a.webhookUrl;
    bunny?.setWebhookUrl(`${started.url}/functions/v1/video-webhook`);
    service = started.service();
    for (const sql of [options.sql ?? []].flat()) await started.server.ctx.engine.exec(sql);
    const names = [...sessions.keys()];
    const clients = await Promise.all(names.map((who) => started!.signIn(EMAIL[who])));
    names.forEach((who, i) => sessions.set(who, clients[i]));
  });
  afterAll(async () => {
    await started?.stop();
    await fake?.close();
    await bunny?.close();
    if (bunnyDir) await rm(bunnyDir, { recursive: true, force: true });
  });

  const serviceClient = late('backend.service()', () => service);
  const asaas = late('backend.asaas', () => {
    if (!options.fakeAsaas) throw new Error('useBackend({ fakeAsaas }) starts the fake Asaas');
    return fake;
  });
  const fakeBunny = late('backend.bunny', () => {
    if (!options.fakeBunny) throw new Error('useBackend({ fakeBunny: true }) starts the fake Bunny Stream');
    return bunny;
  });
  const backend: Backend = {
    get url() {
      return ready().url;
    },
    get server() {
      return ready().server;
    },
    get engine() {
      return ready().server.ctx.engine;
    },
    sql: async <T = Record<string, unknown>>(text: string, params: unknown[] = []) => (await ready().server.ctx.engine.query<T>(text, params)).rows,
    service: () => serviceClient,
    asaas,
    bunny: fakeBunny,
    anon: () => ready().anon(),
    clientWithToken: (jwt, headers = {}) => makeClient(ready().url, ANON_KEY, { Authorization: `Bearer ${jwt}`, ...headers }),
    signedIn(who) {
      if (started) throw new Error(`signedIn('${who}') is called at file or describe level, before the backend starts`);
      sessions.set(who, undefined);
      return late(`signedIn('${who}')`, () => sessions.get(who));
    },
    signIn: (email, password) => ready().signIn(email, password),
    async createAccount(o = {}) {
      const email = o.email ?? uniqueEmail(o.prefix ?? 'conta');
      const password = o.password ?? TEST_PASSWORD;
      const metadata = { ...(o.name === undefined ? {} : { name: o.name }), ...(o.school === undefined ? {} : { school_id: o.school }) };
      const { data, error } = await service!.auth.admin.createUser({
        email,
        password,
        email_confirm: o.confirmed ?? true,
        ...(Object.keys(metadata).length ? { user_metadata: metadata } : {}),
      });
      if (error) throw new Error(`createUser of ${email} failed: ${error.message}`);
      const id = data.user!.id;
      if (o.role) {
        const role = await service!.from('user_roles').insert({ user_id: id, school_id: o.school ?? null, role: o.role });
        if (role.error) throw new Error(`the ${o.role} role of ${email} failed: ${role.error.message}`);
      }
      return { id, email, password };
    },
    async signedInAccount(o = {}) {
      const account = await backend.createAccount(o);
      return { ...account, client: await backend.signIn(account.email, account.password) };
    },
    async twoFactorSession(email, password) {
      const client = await backend.signIn(email, password);
      return { client, ...(await turnOnTwoFactor(client)) };
    },
    async jwtUser(o = {}) {
      const id = o.id ?? randomUUID();
      const claims = { sub: id, role: 'authenticated', aud: 'authenticated', email: o.email ?? `${id.slice(0, 8)}@example.com` };
      const jwt = await signJwt(claims, LOCAL_JWT_SECRET, o.expiresIn ?? 3600);
      return { id, jwt, client: backend.clientWithToken(jwt) };
    },
  };
  return backend;
}
