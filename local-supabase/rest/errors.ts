// PostgREST's error bodies `{code, message, details, hint}` and its HTTP statuses.
import { HttpError } from '../http.ts';
import { isPgError } from '../db/engine.ts';
import type { DbRole } from '../jwt.ts';

export function pgrstError(
  status: number,
  code: string,
  message: string,
  details: string | null = null,
  hint: string | null = null,
  headers: Record<string, string> = {},
): HttpError {
  return new HttpError(status, { code, details, hint, message }, headers);
}

/** PGRST100: the query string does not follow PostgREST's grammar. */
export function parseError(what: string, input: string, details: string): HttpError {
  return pgrstError(400, 'PGRST100', `failed to parse ${what} (${input})`, details);
}

export function tableNotFound(name: string, suggestion?: string, schema = 'public'): HttpError {
  return pgrstError(
    404,
    'PGRST205',
    `Could not find the table '${schema}.${name}' in the schema cache`,
    null,
    suggestion ? `Perhaps you meant the table '${schema}.${suggestion}'` : null,
  );
}

/** PGRST127: a feature PostgREST has and this endpoint does not; refused rather than answered wrongly. */
export function notImplemented(details: string): HttpError {
  return pgrstError(400, 'PGRST127', 'Feature not implemented', details);
}

/** PostgREST's fuzzy suggestion: the closest candidate by edit distance, if similar enough. */
export function closest(name: string, candidates: Iterable<string>, minScore: number): string | undefined {
  let best: string | undefined;
  let bestScore = minScore;
  const list = [...candidates];
  // An exact match means the name is right (the problem is elsewhere): no suggestion.
  if (list.some((c) => c.toLowerCase() === name.toLowerCase())) return undefined;
  for (const c of list) {
    const score = 1 - editDistance(name.toLowerCase(), c.toLowerCase()) / Math.max(name.length, c.length);
    if (score >= bestScore) {
      best = c;
      bestScore = score;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

export function columnNotFound(table: string, column: string): HttpError {
  // What PostgreSQL reports for an unknown column in a read; PostgREST passes it on as 400.
  return pgrstError(400, '42703', `column ${table}.${column} does not exist`);
}

export function payloadColumnNotFound(table: string, column: string): HttpError {
  return pgrstError(400, 'PGRST204', `Could not find the '${column}' column of '${table}' in the schema cache`);
}

/** HTTP status PostgREST gives a PostgreSQL SQLSTATE. */
export function statusForSqlState(code: string, role: DbRole): number {
  // `raise sqlstate 'PT429'` chooses the status itself; PT not followed by a number is a 500.
  if (code.startsWith('PT')) return /^PT[1-5]\d\d$/.test(code) ? Number(code.slice(2)) : 500;
  if (code === '42501') return role === 'anon' ? 401 : 403;
  if (code === '23503' || code === '23505') return 409;
  if (code === '25006') return 405;
  if (code === 'P0001') return 400;
  if (code === '42883' || code === '42P01') return 404;
  if (code === '42P17') return 500;
  const cls = code.slice(0, 2);
  if (cls === '08' || cls === '53') return 503;
  if (cls === '0L' || cls === '0P' || cls === '28') return 403;
  if (['09', '25', '2D', '38', '39', '3B', '40', '54', '55', '57', '58', 'F0', 'HV', 'P0', 'XX'].includes(cls)) return 500;
  return 400;
}

/** Maps an error thrown by the database into PostgREST's response; other errors pass through. */
export function fromDbError(e: unknown, role: DbRole): unknown {
  if (e instanceof HttpError || !isPgError(e) || !e.code) return e;
  return new HttpError(statusForSqlState(e.code, role), {
    code: e.code,
    details: e.detail ?? null,
    hint: e.hint ?? null,
    message: e.message,
  });
}
