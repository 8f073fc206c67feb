// Input checks with GoTrue's rules and messages: request bodies, emails, passwords, ban durations.
import type { IncomingMessage } from 'node:http';
import { readBody } from '../http.ts';
import { AuthError, badRequest, weakPassword } from './errors.ts';

export const MIN_PASSWORD_LENGTH = 6;
/** bcrypt only reads the first 72 bytes; GoTrue refuses longer passwords instead of truncating. */
const MAX_PASSWORD_BYTES = 72;

export type Body = Record<string, unknown>;

/** Reads a JSON object body; GoTrue answers 400 bad_json when it does not parse. */
export async function readAuthBody(req: IncomingMessage): Promise<Body> {
  const raw = (await readBody(req, 1024 * 1024)).toString('utf8');
  if (!raw.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (e) {
    throw badRequest('bad_json', `Could not parse request body as JSON: ${(e as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw badRequest('bad_json', 'Could not parse request body as JSON: expected an object');
  }
  return parsed as Body;
}

/** A string field, or undefined when absent/null; any other type is a bad request like Go's unmarshal. */
export function optString(body: Body, key: string): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw badRequest('bad_json', `Could not parse request body as JSON: ${key} must be a string`);
  return v;
}

export function optBoolean(body: Body, key: string): boolean {
  const v = body[key];
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw badRequest('bad_json', `Could not parse request body as JSON: ${key} must be a boolean`);
  return v;
}

/** A JSON object field (metadata), or undefined when absent/null. */
export function optObject(body: Body, key: string): Record<string, unknown> | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) {
    throw badRequest('bad_json', `Could not parse request body as JSON: ${key} must be an object`);
  }
  return v as Record<string, unknown>;
}

// GoTrue's email pattern (HTML5 "valid e-mail address"): quotes are legal in the local part, so
// they must be stored verbatim and never reach SQL text.
const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** Trimmed, validated and lower-cased, as GoTrue stores emails. */
export function normalizeEmail(email: string | undefined): string {
  const value = (email ?? '').trim();
  if (!value) throw badRequest('validation_failed', 'An email address is required');
  if (value.length > 255) throw badRequest('validation_failed', 'An email address is too long');
  if (!EMAIL_PATTERN.test(value)) throw badRequest('validation_failed', 'Unable to validate email address: invalid format');
  return value.toLowerCase();
}

export function checkPasswordStrength(password: string): void {
  if ([...password].length < MIN_PASSWORD_LENGTH) throw weakPassword();
  if (Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES) {
    throw badRequest('validation_failed', `Password cannot be longer than ${MAX_PASSWORD_BYTES} characters`);
  }
}

const DURATION_UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/**
 * Go's time.ParseDuration (what GoTrue uses for ban_duration), in milliseconds:
 * "876000h", "1h30m", "90s", "-1.5h", "0".
 */
export function parseGoDuration(text: string): number {
  const invalid = () => new AuthError(400, 'validation_failed', `invalid format for ban duration: time: invalid duration "${text}"`);
  let rest = text;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (!rest) throw invalid();
  let total = 0;
  const part = /^(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/;
  while (rest) {
    const m = part.exec(rest);
    if (!m) throw invalid();
    total += Number(m[1]) * DURATION_UNITS[m[2]!]!;
    rest = rest.slice(m[0].length);
  }
  if (!Number.isFinite(total)) throw invalid();
  return sign * total;
}
