// Settings of the local backend, read once from the environment (see .env.example) and, for auth
// e-mails, from supabase/config.toml as the Supabase CLI reads it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseGoDuration } from './auth/validate.ts';
import { readTomlTable } from './toml.ts';

/** The Supabase CLI's public local-development values: safe to commit, never used in production. */
export const LOCAL_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';
export const LOCAL_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0';
export const LOCAL_SERVICE_ROLE_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU';

export interface LocalSupabaseConfig {
  port: number;
  /** Host the server binds to: loopback only. */
  host: string;
  /** Persistent folder (database + storage files); null = in memory database and a temp storage folder. */
  dataDir: string | null;
  /** Set: a real PostgreSQL instead of PGlite. */
  databaseUrl: string | null;
  jwtSecret: string;
  anonKey: string;
  serviceRoleKey: string;
  /** Access token lifetime in seconds (GoTrue default 3600). */
  jwtExpiry: number;
  /** Project root: where supabase/ lives. */
  rootDir: string;
  /** Where the SPA is served, for auth redirects and recovery links. */
  siteUrl: string;
  /** Folder of the Deno edge functions (supabase/functions); tests may point elsewhere. */
  functionsDir: string;
  /**
   * Function secrets that win over supabase/functions/.env, as `supabase secrets set` would: tests
   * point SITE_URL and ASAAS_*_URL at their own ports. From FUNCTIONS_SECRET_<NAME> variables.
   */
  functionSecrets: Record<string, string>;
  authEmail: AuthEmailConfig;
  authRateLimits: AuthRateLimits;
}

/**
 * GoTrue's per-IP request limits, per 5 minutes, from `[auth.rate_limit]` (0 = no limit). The
 * AUTH_RATE_LIMIT_<KEY> variables win over config.toml: the e2e backend, which all parallel specs
 * sign in to from 127.0.0.1, turns them off with 0.
 */
export interface AuthRateLimits {
  /** `sign_in_sign_ups`: password sign-ins and sign-ups. */
  signInSignUps: number;
  /** `token_refresh`: refresh-token grants. */
  tokenRefresh: number;
  /** `token_verifications`: /verify (recovery links and OTPs). */
  tokenVerifications: number;
}

/** The platform's values (Supabase CLI defaults) when config.toml leaves a key out. */
const DEFAULT_RATE_LIMITS: AuthRateLimits = { signInSignUps: 30, tokenRefresh: 150, tokenVerifications: 30 };

export function readAuthRateLimits(toml: string, env: NodeJS.ProcessEnv = {}): AuthRateLimits {
  const limits = readTomlTable(toml, ['auth', 'rate_limit']);
  const pick = (key: string, fallback: number): number => {
    const raw = env[`AUTH_RATE_LIMIT_${key.toUpperCase()}`] || limits[key];
    const n = raw === undefined ? fallback : Number(raw);
    if (!Number.isInteger(n) || n < 0) throw new Error(`[auth.rate_limit] ${key} "${raw}" is not a whole number >= 0`);
    return n;
  };
  return {
    signInSignUps: pick('sign_in_sign_ups', DEFAULT_RATE_LIMITS.signInSignUps),
    tokenRefresh: pick('token_refresh', DEFAULT_RATE_LIMITS.tokenRefresh),
    tokenVerifications: pick('token_verifications', DEFAULT_RATE_LIMITS.tokenVerifications),
  };
}

/** What auth e-mails obey, from supabase/config.toml. */
export interface AuthEmailConfig {
  /** `[auth.rate_limit] email_sent`: e-mails per address per hour (0 = no limit). */
  sentPerHour: number;
  /** `[auth.email] max_frequency`: the minimum gap between two e-mails to one address, in ms. */
  maxFrequencyMs: number;
  /** `[auth.email.template.recovery]`: subject and HTML file (content_path, from the project root). */
  recoveryTemplate: { subject: string; contentPath: string } | null;
}

/** The platform's defaults when config.toml leaves a setting out. */
const DEFAULT_EMAILS_PER_HOUR = 2;
const DEFAULT_MAX_FREQUENCY = '60s';

export function readAuthEmailConfig(toml: string): AuthEmailConfig {
  const limits = readTomlTable(toml, ['auth', 'rate_limit']);
  const email = readTomlTable(toml, ['auth', 'email']);
  const recovery = readTomlTable(toml, ['auth', 'email', 'template', 'recovery']);
  const frequency = String(email.max_frequency ?? DEFAULT_MAX_FREQUENCY);
  let maxFrequencyMs: number;
  try {
    maxFrequencyMs = parseGoDuration(frequency);
  } catch {
    throw new Error(`supabase/config.toml: [auth.email] max_frequency "${frequency}" is not a duration like "60s"`);
  }
  return {
    sentPerHour: Number(limits.email_sent ?? DEFAULT_EMAILS_PER_HOUR),
    maxFrequencyMs,
    recoveryTemplate:
      typeof recovery.content_path === 'string'
        ? { subject: String(recovery.subject ?? 'Reset Your Password'), contentPath: recovery.content_path }
        : null,
  };
}

function readConfigToml(rootDir: string): string {
  try {
    return readFileSync(path.join(rootDir, 'supabase', 'config.toml'), 'utf8');
  } catch {
    return ''; // no config.toml: the defaults
  }
}

const FUNCTION_SECRET_PREFIX = 'FUNCTIONS_SECRET_';

export function configFromEnv(overrides: Partial<LocalSupabaseConfig> = {}): LocalSupabaseConfig {
  const env = process.env;
  const rootDir = overrides.rootDir ?? path.resolve(import.meta.dirname, '..');
  const dataDirEnv = env.LOCAL_SUPABASE_DATA_DIR || '.local-supabase';
  return {
    port: Number(env.LOCAL_SUPABASE_PORT || 54321),
    host: '127.0.0.1',
    dataDir: path.resolve(rootDir, dataDirEnv),
    databaseUrl: env.DATABASE_URL || null,
    jwtSecret: env.JWT_SECRET || LOCAL_JWT_SECRET,
    anonKey: env.SUPABASE_ANON_KEY || LOCAL_ANON_KEY,
    serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY || LOCAL_SERVICE_ROLE_KEY,
    jwtExpiry: Number(env.JWT_EXPIRY || 3600),
    siteUrl: env.SITE_URL || 'http://localhost:5173',
    rootDir,
    functionsDir: path.join(rootDir, 'supabase', 'functions'),
    functionSecrets: Object.fromEntries(
      Object.entries(env)
        .filter(([k, v]) => k.startsWith(FUNCTION_SECRET_PREFIX) && v !== undefined)
        .map(([k, v]) => [k.slice(FUNCTION_SECRET_PREFIX.length), v!]),
    ),
    authEmail: overrides.authEmail ?? readAuthEmailConfig(readConfigToml(rootDir)),
    authRateLimits: overrides.authRateLimits ?? readAuthRateLimits(readConfigToml(rootDir), env),
    ...overrides,
  };
}
