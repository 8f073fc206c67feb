// Reading PostgREST's request headers: Prefer, Accept, Range and the schema profiles.
import type { IncomingMessage } from 'node:http';
import { pgrstError } from './errors.ts';

export interface Preferences {
  return: 'minimal' | 'representation' | 'headers-only' | null;
  count: boolean;
  resolution: 'merge-duplicates' | 'ignore-duplicates' | null;
  missingDefault: boolean;
  rollback: boolean;
}

export function parsePrefer(req: IncomingMessage): Preferences {
  const raw = ([] as string[]).concat(req.headers.prefer ?? []).join(',');
  const p: Preferences = { return: null, count: false, resolution: null, missingDefault: false, rollback: false };
  for (const part of raw.split(',')) {
    const [k, v] = part.trim().split('=').map((s) => s?.trim());
    if (k === 'return' && (v === 'minimal' || v === 'representation' || v === 'headers-only')) p.return = v;
    // planned and estimated are answered with the exact count.
    else if (k === 'count' && (v === 'exact' || v === 'planned' || v === 'estimated')) p.count = true;
    else if (k === 'resolution' && (v === 'merge-duplicates' || v === 'ignore-duplicates')) p.resolution = v;
    else if (k === 'missing' && v === 'default') p.missingDefault = true;
    else if (k === 'tx' && v === 'rollback') p.rollback = true;
  }
  return p;
}

export type ResponseShape = 'array' | 'object';

export interface Accept {
  shape: ResponseShape;
  stripNulls: boolean;
  csv: boolean;
}

export function parseAccept(req: IncomingMessage): Accept {
  const header = req.headers.accept?.trim();
  if (!header) return { shape: 'array', stripNulls: false, csv: false };
  for (const entry of header.split(',')) {
    const [type, ...params] = entry.split(';').map((s) => s.trim().toLowerCase());
    const stripNulls = params.includes('nulls=stripped');
    if (type === 'application/vnd.pgrst.object+json' || type === 'application/vnd.pgrst.object') return { shape: 'object', stripNulls, csv: false };
    if (type === 'application/json' || type === 'application/vnd.pgrst.array+json' || type === '*/*' || type === 'application/*') {
      return { shape: 'array', stripNulls, csv: false };
    }
    if (type === 'text/csv') return { shape: 'array', stripNulls: false, csv: true };
  }
  throw pgrstError(406, 'PGRST107', `None of these media types are available: ${header}`);
}

/** `Range: 0-9` (items): the rows the client asks for, before `limit`/`offset` narrow it. */
export function parseRange(req: IncomingMessage): { from: number; to: number | null } | null {
  const header = req.headers.range;
  if (!header) return null;
  const m = /^(?:items=)?\s*(\d+)-(\d*)\s*$/.exec(header);
  if (!m) return null;
  const from = Number(m[1]);
  const to = m[2] === '' ? null : Number(m[2]);
  if (to !== null && to < from) {
    throw pgrstError(416, 'PGRST103', 'Requested range not satisfiable', 'The lower boundary must be lower than or equal to the upper boundary in the Range header.');
  }
  return { from, to };
}

/** Only `public` is exposed, as in this project's Supabase config. */
export function checkProfile(req: IncomingMessage): void {
  for (const h of ['accept-profile', 'content-profile'] as const) {
    const v = req.headers[h];
    if (typeof v === 'string' && v !== 'public') {
      throw pgrstError(406, 'PGRST106', 'The schema must be one of the following: public', null, null);
    }
  }
}
