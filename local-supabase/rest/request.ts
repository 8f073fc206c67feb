// Reading PostgREST's request headers: Prefer, Accept, Range and the schema profiles.
import type { IncomingMessage } from 'node:http';
import { pgrstError } from './errors.ts';

export interface Preferences {
  return: 'minimal' | 'representation' | 'headers-only' | null;
  count: 'exact' | 'planned' | 'estimated' | null;
  resolution: 'merge-duplicates' | 'ignore-duplicates' | null;
  missing: 'default' | 'null' | null;
  tx: 'commit' | 'rollback' | null;
  handling: 'strict' | 'lenient' | null;
  /** Honoured only with handling=strict, as PostgREST does. */
  maxAffected: number | null;
  /** Preferences PostgREST does not know (refused with handling=strict). */
  invalid: string[];
}

/** The values each preference may take, as PostgREST 12/13 recognise them. */
const KNOWN = {
  return: ['minimal', 'representation', 'headers-only'],
  count: ['exact', 'planned', 'estimated'],
  resolution: ['merge-duplicates', 'ignore-duplicates'],
  missing: ['default', 'null'],
  tx: ['commit', 'rollback'],
  handling: ['strict', 'lenient'],
} as const;

/**
 * `Prefer` as PostgREST reads it (RFC 7240): comma-separated over every Prefer header, the first of a
 * kind wins, anything else is invalid, and with handling=strict an invalid preference is an error
 * (PGRST122). `tx` is honoured as with PostgREST's db-tx-end = commit-allow-override. `timezone` is
 * not supported here, so it counts as invalid rather than being silently ignored.
 */
export function parsePrefer(req: IncomingMessage): Preferences {
  const raw = ([] as string[]).concat(req.headers.prefer ?? []).join(',');
  const p: Preferences = { return: null, count: null, resolution: null, missing: null, tx: null, handling: null, maxAffected: null, invalid: [] };
  for (const part of raw.split(',').map((s) => s.trim()).filter(Boolean)) {
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? '' : part.slice(eq + 1);
    if (key in KNOWN && (KNOWN[key as keyof typeof KNOWN] as readonly string[]).includes(value)) {
      const k = key as keyof typeof KNOWN;
      if (p[k] === null) (p as unknown as Record<string, string>)[k] = value;
    } else if (key === 'max-affected' && /^\d+$/.test(value)) {
      p.maxAffected ??= Number(value);
    } else if (part !== 'params=single-object') {
      p.invalid.push(part);
    }
  }
  if (p.handling === 'strict' && p.invalid.length) {
    throw pgrstError(400, 'PGRST122', 'Invalid preferences given with handling=strict', `Invalid preferences: ${p.invalid.join(', ')}`);
  }
  return p;
}

/** Preference-Applied: the preferences this request honoured, in PostgREST's order. */
export function preferenceApplied(p: Preferences, honoured: ('resolution' | 'missing' | 'return' | 'count')[]): Record<string, string> {
  const values = [
    honoured.includes('resolution') && p.resolution && `resolution=${p.resolution}`,
    honoured.includes('missing') && p.missing && `missing=${p.missing}`,
    honoured.includes('return') && p.return && `return=${p.return}`,
    honoured.includes('count') && p.count && `count=${p.count}`,
    p.tx && `tx=${p.tx}`,
    p.handling && `handling=${p.handling}`,
    p.handling === 'strict' && p.maxAffected !== null && `max-affected=${p.maxAffected}`,
  ].filter(Boolean);
  return values.length ? { 'Preference-Applied': values.join(', ') } : {};
}

/** Prefer: handling=strict, max-affected=N: more affected rows than N undo the request (PGRST124). */
export function checkMaxAffected(p: Preferences, affected: number): void {
  if (p.handling === 'strict' && p.maxAffected !== null && affected > p.maxAffected) {
    throw pgrstError(400, 'PGRST124', 'Query result exceeds max-affected preference constraint', `The query affects ${affected} rows`);
  }
}

export type ResponseShape = 'array' | 'object';

export interface Accept {
  shape: ResponseShape;
  stripNulls: boolean;
  csv: boolean;
  /** `application/vnd.pgrst.plan` (supabase-js's explain()): the plan of the query for `for`. */
  plan?: Plan;
}

export interface Plan {
  format: 'json' | 'text';
  /** EXPLAIN options: analyze, verbose, settings, buffers, wal. */
  options: string[];
  /** The media type the plan is for, as given (`application/json` when absent). */
  forType: string;
}

const PLAN_OPTIONS = new Set(['analyze', 'verbose', 'settings', 'buffers', 'wal']);

/**
 * The response media type from Accept, as PostgREST negotiates it. The plan media type is offered
 * only with db-plan-enabled (`planEnabled`); otherwise it is one more unavailable type.
 */
export function parseAccept(req: IncomingMessage, planEnabled = false): Accept {
  const header = req.headers.accept?.trim();
  if (!header) return { shape: 'array', stripNulls: false, csv: false };
  for (const entry of splitMediaTypes(header)) {
    const [type, ...params] = entry.split(';').map((s) => s.trim());
    const lower = type.toLowerCase();
    const stripNulls = params.some((p) => p.toLowerCase() === 'nulls=stripped');
    if (lower === 'application/vnd.pgrst.object+json' || lower === 'application/vnd.pgrst.object') return { shape: 'object', stripNulls, csv: false };
    if (lower === 'application/json' || lower === 'application/vnd.pgrst.array+json' || lower === '*/*' || lower === 'application/*') {
      return { shape: 'array', stripNulls, csv: false };
    }
    if (lower === 'text/csv') return { shape: 'array', stripNulls: false, csv: true };
    const plan = /^application\/vnd\.pgrst\.plan(?:\+(json|text))?$/.exec(lower);
    if (plan && planEnabled) {
      const param = (name: string) => params.find((p) => p.toLowerCase().startsWith(`${name}=`))?.slice(name.length + 1).replace(/^"|"$/g, '');
      const forType = param('for') ?? 'application/json';
      const options = (param('options') ?? '').split('|').map((o) => o.trim().toLowerCase()).filter((o) => PLAN_OPTIONS.has(o));
      const target = forType.toLowerCase() === 'text/csv' ? { shape: 'array' as const, csv: true } : { shape: (/object/.test(forType.toLowerCase()) ? 'object' : 'array') as ResponseShape, csv: false };
      return { ...target, stripNulls: false, plan: { format: (plan[1] ?? 'text') as 'json' | 'text', options, forType } };
    }
  }
  throw pgrstError(406, 'PGRST107', `None of these media types are available: ${header}`);
}

/** Splits an Accept header at the commas between media types (not those inside quoted parameters). */
function splitMediaTypes(header: string): string[] {
  const out: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < header.length; i++) {
    if (header[i] === '"') quoted = !quoted;
    else if (header[i] === ',' && !quoted) {
      out.push(header.slice(start, i));
      start = i + 1;
    }
  }
  out.push(header.slice(start));
  return out;
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

/**
 * The schema a request addresses: `Accept-Profile` for GET/HEAD, `Content-Profile` for the other
 * methods (as PostgREST reads them), the first exposed schema when absent. A schema that is not
 * exposed answers PGRST106.
 */
export function requestSchema(req: IncomingMessage, exposed: string[]): string {
  const method = req.method ?? 'GET';
  const header = method === 'GET' || method === 'HEAD' ? 'accept-profile' : 'content-profile';
  const v = req.headers[header];
  if (v === undefined) return exposed[0];
  const schema = String(v);
  if (!exposed.includes(schema)) {
    throw pgrstError(406, 'PGRST106', `Invalid schema: ${schema}`, null, `Only the following schemas are exposed: ${exposed.join(', ')}`);
  }
  return schema;
}
