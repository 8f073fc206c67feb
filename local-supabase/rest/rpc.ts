// Calls of `/rpc/<function>`: picks the overload whose argument names match the JSON keys (POST)
// or query parameters (GET), and calls it with named arguments taken from one JSON parameter
// through json_to_record, which converts JSON values (arrays, objects) to the argument types.
import type { CatalogArg, CatalogFunction } from './catalog.ts';
import { pgrstError } from './errors.ts';
import { qualified, quoteIdent } from './ident.ts';
import type { Params } from './read-builder.ts';
import type { SchemaCache } from './schema-cache.ts';

const inputArgs = (f: CatalogFunction): CatalogArg[] => f.args.filter((a) => a.mode === 'i' || a.mode === 'b' || a.mode === 'v');
const isJsonType = (a: CatalogArg) => a.type.name === 'json' || a.type.name === 'jsonb';

export interface Call {
  fn: CatalogFunction;
  /** Named arguments given, or the whole body for a single unnamed json/jsonb parameter. */
  args: Record<string, unknown>;
  wholeBody: boolean;
}

export function notFound(name: string, keys: string[], schema = 'public'): ReturnType<typeof pgrstError> {
  const list = [...keys].sort().join(', ');
  const fn = `${schema}.${name}`;
  return pgrstError(
    404,
    'PGRST202',
    `Could not find the function ${fn}${keys.length ? `(${list})` : ' without parameters'} in the schema cache`,
    `Searched for the function ${fn} with ${keys.length ? `parameters ${list}` : 'no parameters'} or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.`,
    null,
  );
}

/** The names of every input argument of every overload (GET: which query parameters are arguments). */
export async function argumentNames(cache: SchemaCache, name: string): Promise<Set<string> | undefined> {
  const fns = await cache.lookup(() => cache.functionsNamed(name));
  if (!fns) return undefined;
  return new Set(fns.flatMap((f) => inputArgs(f).map((a) => a.name).filter(Boolean)));
}

export async function resolveCall(cache: SchemaCache, name: string, args: Record<string, unknown>, isPost: boolean): Promise<Call> {
  const keys = Object.keys(args);
  const pick = () => {
    const fns = cache.functionsNamed(name);
    if (!fns) return undefined;
    const matches = fns.filter((f) => {
      const inputs = inputArgs(f);
      if (inputs.some((a) => !a.name)) return false;
      return keys.every((k) => inputs.some((a) => a.name === k)) && inputs.every((a) => a.hasDefault || keys.includes(a.name));
    });
    if (matches.length) return { matches, wholeBody: false };
    if (isPost) {
      const single = fns.filter((f) => {
        const inputs = inputArgs(f);
        return inputs.length === 1 && !inputs[0].name && isJsonType(inputs[0]);
      });
      if (single.length) return { matches: single, wholeBody: true };
    }
    return undefined;
  };
  const found = await cache.lookup(pick);
  if (!found) throw notFound(name, keys);
  if (found.matches.length > 1) {
    // PostgREST does not rank overloads: every one the arguments fit is a candidate, and two are an error.
    throw pgrstError(
      300,
      'PGRST203',
      `Could not choose the best candidate function between: ${found.matches.map((f) => `public.${name}(${inputArgs(f).map((a) => `${a.name} => ${a.type.sql}`).join(', ')})`).join(', ')}`,
      null,
      'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
    );
  }
  return { fn: found.matches[0], args, wholeBody: found.wholeBody };
}

export type ResultKind = 'void' | 'scalar' | 'rows';

export function resultKind(fn: CatalogFunction): ResultKind {
  if (fn.returnType.name === 'void') return 'void';
  return fn.returnColumns ? 'rows' : 'scalar';
}

/**
 * `select … from <function call>` producing the rows of the call; scalar results come out as one
 * column named pgrst_scalar. Meant for a materialized CTE so the function runs exactly once.
 */
export function callSql(call: Call, params: Params): string {
  const { fn } = call;
  const f = quoteIdent('pgrst_f');
  const kind = resultKind(fn);
  const columns = kind === 'scalar' || kind === 'void' ? `(${quoteIdent('pgrst_scalar')})` : '';
  const target = qualified('public', fn.name);
  if (call.wholeBody) {
    const arg = inputArgs(fn)[0];
    return `select ${f}.* from ${target}(${params.add(JSON.stringify(call.args))}::${arg.type.sql}) as ${f}${columns}`;
  }
  const given = inputArgs(fn).filter((a) => a.name in call.args);
  if (!given.length) return `select ${f}.* from ${target}() as ${f}${columns}`;
  const a = quoteIdent('pgrst_args');
  const defs = given.map((x) => `${quoteIdent(x.name)} ${x.type.sql}`).join(', ');
  const named = given.map((x) => `${x.mode === 'v' ? 'variadic ' : ''}${quoteIdent(x.name)} => ${a}.${quoteIdent(x.name)}`).join(', ');
  return (
    `select ${f}.* from json_to_record(${params.add(JSON.stringify(call.args))}::json) as ${a}(${defs}) ` +
    `cross join lateral ${target}(${named}) as ${f}${columns}`
  );
}
