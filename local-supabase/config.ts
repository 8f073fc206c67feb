// Settings of the local backend, read once from the environment (see .env.example) and, for auth
// e-mails, from supabase/config.toml as the Supabase CLI reads it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseGoDuration } from './auth/validate.ts';
import { parseSigningKeys, type SigningKeys } from './jwt.ts';
import { readTomlStringArray, readTomlTable } from './toml.ts';

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
  /**
   * `[auth] signing_keys_path` (AUTH_SIGNING_KEYS_PATH wins): the asymmetric keys access tokens are
   * signed with and published at /auth/v1/.well-known/jwks.json. null = HS256 with jwtSecret.
   */
  signingKeys: SigningKeys | null;
  anonKey: string;
  serviceRoleKey: string;
  /** Access token lifetime in seconds (GoTrue default 3600). */
  jwtExpiry: number;
  /** Project root: where supabase/ lives. */
  rootDir: string;
  /** Where the SPA is served: `[auth] site_url` (SITE_URL wins), the fallback of every auth redirect. */
  siteUrl: string;
  /** `[auth] additional_redirect_urls`: the other allowed `redirect_to` values (GoTrue's globs). */
  additionalRedirectUrls: string[];
  /**
   * The API's public URL (`[api] external_url`, API_EXTERNAL_URL wins): the base of the links in
   * auth e-mails and the JWT issuer. null = http://localhost:<port>. Never taken from a request.
   */
  apiExternalUrl: string | null;
  /** Folder of the Deno edge functions (supabase/functions); tests may point elsewhere. */
  functionsDir: string;
  /**
   * Function secrets that win over supabase/functions/.env, as `supabase secrets set` would: tests
   * point SITE_URL and ASAAS_*_URL at their own ports. From FUNCTIONS_SECRET_<NAME> variables.
   */
  functionSecrets: Record<string, string>;
  authEmail: AuthEmailConfig;
  authRateLimits: AuthRateLimits;
  /**
   * Image transformations one client address may render a minute (cache misses; what the render cache
   * holds is served freely): LOCAL_STORAGE_RENDER_MISSES_PER_MINUTE, 60 by default, 0 for no limit.
   * Local only (storage/render-limits.ts): the platform's imgproxy has no per-address budget.
   */
  renderMissesPerMinute: number;
  anonymousSignIns: AnonymousSignIns;
  smtp: SmtpListenerConfig;
  /**
   * A second listener speaking HTTPS with HTTP/2, as the hosted API is served (a browser multiplexes
   * its requests over one connection), beside the plain one (which functions, pg_net and tests keep
   * using): LOCAL_SUPABASE_TLS_PORT with LOCAL_SUPABASE_TLS_CERT and LOCAL_SUPABASE_TLS_KEY (PEM files).
   * Set, seeded URLs point at it. `npm run bench:lighthouse` measures through it.
   */
  tls: TlsListenerConfig | null;
}

export interface TlsListenerConfig {
  port: number;
  certFile: string;
  keyFile: string;
}

/**
 * The inbox's SMTP listener (./mail/smtp-listener.ts), on `host` only. Port: LOCAL_SUPABASE_SMTP_PORT
 * (0 = a free one); else, beside the usual API port 54321, `[inbucket] smtp_port` of config.toml or
 * 54325 (the Supabase CLI's); else a free port, so backends on other ports (tests, benches, e2e) never
 * collide. The functions are told the port really bound. It requires AUTH with this user and password
 * (LOCAL_SUPABASE_SMTP_USER / _PASS): local-only values, like the keys above.
 */
export interface SmtpListenerConfig {
  port: number;
  user: string;
  pass: string;
}

export const LOCAL_SMTP_USER = 'local-inbox';
export const LOCAL_SMTP_PASS = 'local-inbox-password';
const DEFAULT_PORT = 54321;
const DEFAULT_SMTP_PORT = 54325;

export function readSmtpListenerConfig(toml: string, env: NodeJS.ProcessEnv = {}, httpPort = DEFAULT_PORT): SmtpListenerConfig {
  const configured =
    env.LOCAL_SUPABASE_SMTP_PORT || (httpPort === DEFAULT_PORT ? (readTomlTable(toml, ['inbucket']).smtp_port ?? DEFAULT_SMTP_PORT) : 0);
  const port = Number(configured);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`SMTP port "${configured}" is not a port number`);
  return { port, user: env.LOCAL_SUPABASE_SMTP_USER || LOCAL_SMTP_USER, pass: env.LOCAL_SUPABASE_SMTP_PASS || LOCAL_SMTP_PASS };
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

/** The auth e-mails local-supabase sends, each with a `[auth.email.template.<name>]`. */
export type AuthEmailTemplate = 'confirmation' | 'recovery' | 'email_change' | 'repeated_signup' | 'magic_link' | 'invite' | 'reauthentication';
const TEMPLATE_NAMES: AuthEmailTemplate[] = ['confirmation', 'recovery', 'email_change', 'repeated_signup', 'magic_link', 'invite', 'reauthentication'];

/** What auth e-mails obey, from supabase/config.toml. */
export interface AuthEmailConfig {
  /** `[auth.email] enable_confirmations`: a sign-up must open the e-mailed link before signing in. */
  enableConfirmations: boolean;
  /** `[auth.email] double_confirm_changes`: an e-mail change needs the link sent to the old address too. */
  doubleConfirmChanges: boolean;
  /**
   * `[auth.email] secure_password_change`: a new password from a session older than 24 hours needs
   * the code /reauthenticate e-mailed (GoTrue's UpdatePasswordRequireReauthentication).
   */
  securePasswordChange: boolean;
  /** `[auth.email] otp_expiry`: how long an e-mailed link works, in seconds. */
  otpExpirySeconds: number;
  /** `[auth.rate_limit] email_sent`: e-mails per address per hour (0 = no limit). */
  sentPerHour: number;
  /** `[auth.email] max_frequency`: the minimum gap between two e-mails to one address, in ms. */
  maxFrequencyMs: number;
  /** `[auth.email.template.<name>]`: subject and HTML file (content_path, from the project root). */
  templates: Partial<Record<AuthEmailTemplate, { subject: string; contentPath: string }>>;
}

/** The platform's defaults when config.toml leaves a setting out. */
const DEFAULT_EMAILS_PER_HOUR = 2;
const DEFAULT_MAX_FREQUENCY = '60s';
/** GoTrue's mailer OTP expiry (Supabase CLI default): one hour. */
const DEFAULT_OTP_EXPIRY = 3600;
const DEFAULT_SITE_URL = 'http://localhost:5173';

export function readAuthEmailConfig(toml: string): AuthEmailConfig {
  const limits = readTomlTable(toml, ['auth', 'rate_limit']);
  const email = readTomlTable(toml, ['auth', 'email']);
  const frequency = String(email.max_frequency ?? DEFAULT_MAX_FREQUENCY);
  let maxFrequencyMs: number;
  try {
    maxFrequencyMs = parseGoDuration(frequency);
  } catch {
    throw new Error(`supabase/config.toml: [auth.email] max_frequency "${frequency}" is not a duration like "60s"`);
  }
  const templates: AuthEmailConfig['templates'] = {};
  for (const name of TEMPLATE_NAMES) {
    const t = readTomlTable(toml, ['auth', 'email', 'template', name]);
    if (typeof t.content_path === 'string') templates[name] = { subject: String(t.subject ?? ''), contentPath: t.content_path };
  }
  const otpExpiry = Number(email.otp_expiry ?? DEFAULT_OTP_EXPIRY);
  if (!Number.isInteger(otpExpiry) || otpExpiry <= 0) throw new Error(`supabase/config.toml: [auth.email] otp_expiry "${email.otp_expiry}" is not a whole number of seconds`);
  return {
    enableConfirmations: email.enable_confirmations === true,
    doubleConfirmChanges: email.double_confirm_changes !== false,
    securePasswordChange: email.secure_password_change === true,
    otpExpirySeconds: otpExpiry,
    sentPerHour: Number(limits.email_sent ?? DEFAULT_EMAILS_PER_HOUR),
    maxFrequencyMs,
    templates,
  };
}

/** `[auth] site_url` and `additional_redirect_urls`, `[api] external_url`; the environment wins. */
export function readAuthUrls(toml: string, env: NodeJS.ProcessEnv = {}): Pick<LocalSupabaseConfig, 'siteUrl' | 'additionalRedirectUrls' | 'apiExternalUrl'> {
  const auth = readTomlTable(toml, ['auth']);
  const api = readTomlTable(toml, ['api']);
  const external = env.API_EXTERNAL_URL || (typeof api.external_url === 'string' ? api.external_url : '');
  return {
    siteUrl: env.SITE_URL || (typeof auth.site_url === 'string' && auth.site_url) || DEFAULT_SITE_URL,
    additionalRedirectUrls: env.ADDITIONAL_REDIRECT_URLS
      ? env.ADDITIONAL_REDIRECT_URLS.split(',').map((u) => u.trim()).filter(Boolean)
      : (readTomlStringArray(toml, ['auth'], 'additional_redirect_urls') ?? []),
    apiExternalUrl: external ? external.replace(/\/+$/, '') : null,
  };
}

/**
 * `[auth] enable_anonymous_sign_ins` (off unless set, as in the Supabase CLI) and `[auth.rate_limit]
 * anonymous_users`: anonymous sign-ins per hour per IP address (CLI default 30, 0 = no limit).
 */
export interface AnonymousSignIns {
  enabled: boolean;
  perHourPerIp: number;
}

export function readAnonymousSignIns(toml: string): AnonymousSignIns {
  const raw = readTomlTable(toml, ['auth', 'rate_limit']).anonymous_users ?? 30;
  const perHourPerIp = Number(raw);
  if (!Number.isInteger(perHourPerIp) || perHourPerIp < 0) throw new Error(`[auth.rate_limit] anonymous_users "${raw}" is not a whole number >= 0`);
  return { enabled: readTomlTable(toml, ['auth']).enable_anonymous_sign_ins === true, perHourPerIp };
}

/**
 * The JWK file of `[auth] signing_keys_path` (what `supabase gen signing-key` writes), relative to
 * supabase/ as the CLI resolves it; AUTH_SIGNING_KEYS_PATH wins. null when neither names one.
 */
export function readSigningKeys(toml: string, rootDir: string, env: NodeJS.ProcessEnv = {}): SigningKeys | null {
  const configured = env.AUTH_SIGNING_KEYS_PATH || readTomlTable(toml, ['auth']).signing_keys_path;
  if (configured === undefined || configured === '') return null;
  if (typeof configured !== 'string') throw new Error('supabase/config.toml: [auth] signing_keys_path must be a path');
  const file = path.resolve(rootDir, 'supabase', configured);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`[auth] signing_keys_path: cannot read ${file}; make one with \`supabase gen signing-key\``, { cause: e });
  }
  return parseSigningKeys(text, file);
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
  const toml = readConfigToml(rootDir);
  return {
    port: Number(env.LOCAL_SUPABASE_PORT || DEFAULT_PORT),
    host: '127.0.0.1',
    dataDir: path.resolve(rootDir, dataDirEnv),
    databaseUrl: env.DATABASE_URL || null,
    jwtSecret: env.JWT_SECRET || LOCAL_JWT_SECRET,
    signingKeys: 'signingKeys' in overrides ? (overrides.signingKeys ?? null) : readSigningKeys(toml, rootDir, env),
    anonKey: env.SUPABASE_ANON_KEY || LOCAL_ANON_KEY,
    serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY || LOCAL_SERVICE_ROLE_KEY,
    jwtExpiry: Number(env.JWT_EXPIRY || 3600),
    ...readAuthUrls(toml, env),
    rootDir,
    functionsDir: path.join(rootDir, 'supabase', 'functions'),
    functionSecrets: Object.fromEntries(
      Object.entries(env)
        .filter(([k, v]) => k.startsWith(FUNCTION_SECRET_PREFIX) && v !== undefined)
        .map(([k, v]) => [k.slice(FUNCTION_SECRET_PREFIX.length), v!]),
    ),
    authEmail: overrides.authEmail ?? readAuthEmailConfig(toml),
    authRateLimits: overrides.authRateLimits ?? readAuthRateLimits(toml, env),
    renderMissesPerMinute: Number(env.LOCAL_STORAGE_RENDER_MISSES_PER_MINUTE || 60),
    anonymousSignIns: overrides.anonymousSignIns ?? readAnonymousSignIns(toml),
    smtp: overrides.smtp ?? readSmtpListenerConfig(toml, env, overrides.port ?? Number(env.LOCAL_SUPABASE_PORT || DEFAULT_PORT)),
    tls:
      env.LOCAL_SUPABASE_TLS_PORT && env.LOCAL_SUPABASE_TLS_CERT && env.LOCAL_SUPABASE_TLS_KEY
        ? { port: Number(env.LOCAL_SUPABASE_TLS_PORT), certFile: env.LOCAL_SUPABASE_TLS_CERT, keyFile: env.LOCAL_SUPABASE_TLS_KEY }
        : null,
    ...overrides,
  };
}
