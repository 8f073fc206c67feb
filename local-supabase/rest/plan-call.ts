// Planning calls of `/rpc/<function>`, resolved as PostgREST does (Plan.hs findProc): the overloads
// whose parameter names fit the JSON keys (POST) or query parameters (GET), else a single unnamed
// json/jsonb parameter that takes the whole body; then what the result is (rows, a scalar, nothing)
// and, for rows, the read of them.
import type { CallRequest } from './api-request.ts';
import type { CatalogArg, CatalogFunction } from './catalog.ts';
import { closest, pgrstError } from './errors.ts';
import { columnTypes, planRead, type ReadPlan } from './plan.ts';
import type { ParsedQuery } from './query-params.ts';
import type { SchemaCache } from './schema-cache.ts';
import { parseSelect } from './select-parser.ts';

export const inputArgs = (f: CatalogFunction): CatalogArg[] => f.args.filter((a) => a.mode === 'i' || a.mode === 'b' || a.mode === 'v');

/** Types a lone unnamed parameter may have for PostgREST to list the function at all. */
const UNNAMED_TYPES = new Set(['bytea', 'json', 'jsonb', 'text', 'xml']);

/**
 * PostgREST's schema cache leaves out functions it could not call: more than one unnamed parameter,
 * or one of a type other than bytea, json, jsonb, text or xml (those take the request body whole).
 */
export function isCallable(f: CatalogFunction): boolean {
  const inputs = inputArgs(f);
  const unnamed = inputs.filter((a) => !a.name).length;
  return unnamed === 0 || (unnamed === 1 && UNNAMED_TYPES.has(inputs[0].type.sql));
}

/** The overloads PostgREST lists, fewest parameters first, then by parameter names and types (its Ord). */
export function callableOverloads(cache: SchemaCache, name: string): CatalogFunction[] {
  const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  return (cache.functionsNamed(name) ?? []).filter(isCallable).sort((a, b) => {
    const pa = inputArgs(a);
    const pb = inputArgs(b);
    if (pa.length !== pb.length) return pa.length - pb.length;
    for (let i = 0; i < pa.length; i++) {
      const c = cmp(pa[i].name, pb[i].name) || cmp(pa[i].type.sql, pb[i].type.sql);
      if (c) return c;
    }
    return 0;
  });
}

export interface Call {
  fn: CatalogFunction;
  schema: string;
  /** Named arguments given (KeyParams), or, for a lone unnamed parameter, the whole body (OnePosParam). */
  args: Record<string, unknown>;
  wholeBody: boolean;
}

/** PGRST202, worded as PostgREST words it for a JSON body (POST) or query parameters (GET). */
export function notFound(schema: string, name: string, keys: string[], isPost: boolean, hint: string | null = null): ReturnType<typeof pgrstError> {
  const sorted = [...keys].sort();
  const fn = `${schema}.${name}`;
  const listed = sorted.join(', ');
  const withParams = sorted.length ? ` with parameter${sorted.length > 1 ? 's' : ''} ${listed}` : ' without parameters';
  return pgrstError(
    404,
    'PGRST202',
    `Could not find the function ${fn}${sorted.length ? `(${listed})` : ' without parameters'} in the schema cache`,
    `Searched for the function ${fn}${withParams}${isPost ? ' or with a single unnamed json/jsonb parameter' : ''}, but no matches were found in the schema cache.`,
    hint,
  );
}

/** The names of every input argument of every overload (GET: which query parameters are arguments). */
export async function argumentNames(cache: SchemaCache, name: string): Promise<Set<string> | undefined> {
  const fns = await cache.lookup(() => cache.functionsNamed(name));
  if (!fns) return undefined;
  return new Set(fns.filter(isCallable).flatMap((f) => inputArgs(f).map((a) => a.name).filter(Boolean)));
}

/** Whether the argument keys fit the parameters: every required one given, nothing unknown. */
function matchesParams(f: CatalogFunction, keys: Set<string>): boolean {
  const inputs = inputArgs(f);
  if (!inputs.length) return keys.size === 0;
  const known = new Set(inputs.map((a) => a.name));
  return [...keys].every((k) => known.has(k)) && inputs.every((a) => a.hasDefault || keys.has(a.name));
}

export async function resolveCall(cache: SchemaCache, name: string, args: Record<string, unknown>, isPost: boolean): Promise<Call> {
  const keys = new Set(Object.keys(args));
  const pick = () => {
    const fns = callableOverloads(cache, name);
    if (!fns.length) return undefined;
    const matches = fns.filter((f) => matchesParams(f, keys));
    // A lone unnamed json/jsonb parameter takes any JSON body the named ones did not fit.
    const fallback = isPost
      ? fns.filter((f) => {
          const inputs = inputArgs(f);
          return !matches.includes(f) && inputs.length === 1 && !inputs[0].name && (inputs[0].type.sql === 'json' || inputs[0].type.sql === 'jsonb');
        })
      : [];
    return matches.length ? matches : fallback.length ? fallback : undefined;
  };
  const found = await cache.lookup(pick);
  if (!found) throw notFound(cache.schema, name, [...keys], isPost, noRpcHint(cache, name, [...keys]));
  if (found.length > 1) {
    // PostgREST does not rank overloads: every one the arguments fit is a candidate, and two are an error.
    throw pgrstError(
      300,
      'PGRST203',
      `Could not choose the best candidate function between: ${found.map((f) => `${cache.schema}.${name}(${inputArgs(f).map((a) => `${a.name} => ${a.type.sql}`).join(', ')})`).join(', ')}`,
      null,
      'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
    );
  }
  const fn = found[0];
  const inputs = inputArgs(fn);
  return { fn, schema: cache.schema, args, wholeBody: inputs.length === 1 && !inputs[0].name };
}

/**
 * PostgREST's hint for PGRST202: a function of a close name when none has this one, else the
 * closest parameter list of its overloads.
 */
function noRpcHint(cache: SchemaCache, name: string, keys: string[]): string | null {
  const overloads = callableOverloads(cache, name);
  const prefix = `Perhaps you meant to call the function ${cache.schema}.`;
  if (!overloads.length) {
    const names = cache.functionNames().filter((n) => callableOverloads(cache, n).length);
    const s = closest(name, names, 0.75);
    return s ? prefix + s : null;
  }
  const listText = (names: string[]) => `(${[...names].sort().join(', ')})`;
  const s = closest(listText(keys), overloads.map((f) => listText(inputArgs(f).map((a) => a.name))), 0.33);
  return s ? prefix + name + s : null;
}

export type ResultKind = 'void' | 'scalar' | 'rows';

export function resultKind(fn: CatalogFunction): ResultKind {
  if (fn.returnType.name === 'void') return 'void';
  return fn.returnColumns ? 'rows' : 'scalar';
}

/** The CTE holding the call's result, so the function runs exactly once. */
export const CALL_SOURCE = 'pgrst_source';

/** The function a request calls and its arguments; GET: which query parameters were arguments. */
export async function resolveCallRequest(cache: SchemaCache, name: string, request: CallRequest): Promise<Call & { argumentNames: Set<string> }> {
  let args: Record<string, unknown> = {};
  if (request.body) {
    args = request.body;
  } else {
    // GET: query parameters named like an argument are arguments, the others filter the result.
    const names = (await argumentNames(cache, name)) ?? new Set<string>();
    for (const [k, v] of request.searchParams) if (names.has(k)) args[k] = v;
  }
  const call = await resolveCall(cache, name, args, request.isPost);
  return { ...call, argumentNames: new Set(request.body ? [] : Object.keys(args)) };
}

export interface CallPlan {
  call: Call;
  kind: ResultKind;
  /** rows: the read of the result (filters, select, order, range). */
  rows: ReadPlan | null;
  /** scalar and void: the range of the result. */
  limit?: number;
  offset: number;
}

export async function planCall(cache: SchemaCache, call: Call, query: ParsedQuery, request: CallRequest, aggregatesEnabled: boolean): Promise<CallPlan> {
  const { accept } = request;
  const kind = resultKind(call.fn);
  // CSV is built from rows; a function returning a scalar or nothing has none to give.
  if (accept.csv && kind !== 'rows') throw pgrstError(406, 'PGRST107', `None of these media types are available: ${request.acceptHeader}`);
  if (kind === 'rows') {
    const source = { from: { kind: 'cte' as const, name: CALL_SOURCE }, label: call.fn.name, columns: columnTypes(call.fn.returnColumns ?? []), table: call.fn.returnTable };
    const rows = await planRead(cache, query, source, parseSelect(query.select ?? '*'), { aggregatesEnabled });
    return { call, kind, rows, offset: rows.root.offset ?? 0 };
  }
  if (query.conditions.size || query.order.size) {
    throw pgrstError(400, 'PGRST100', `failed to parse filter on a function that returns ${call.fn.returnType.sql}`, 'only functions returning rows can be filtered or ordered');
  }
  return { call, kind, rows: null, limit: query.limit.get(''), offset: query.offset.get('') ?? 0 };
}
