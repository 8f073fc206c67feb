// Rendering (PostgREST's Query): each request is ONE statement, rendered purely from its plan. The
// statement answers one row: `n` (rows read or changed), `total` (the count asked for), `inserted`
// (rows an upsert inserted) and `body` (the JSON or CSV text of the response, built in SQL).
import { qualified, quoteIdent } from './ident.ts';
import type { Node, ReadPlan } from './plan.ts';
import { CALL_SOURCE, inputArgs, resultKind, type Call, type CallPlan } from './plan-call.ts';
import { MUTATION_SOURCE, type MutationPlan } from './plan-mutation.ts';
import type { Accept, Plan, Preferences } from './request.ts';
import { RenderContext, type Statement } from './render-context.ts';
import { mutationSql } from './render-mutation.ts';
import { countSql, rowsSql, selectSql } from './render-select.ts';

export type { Statement } from './render-context.ts';

/** The JSON (or CSV) text of the rows of `node`: an array, or the first row for the object media type. */
function bodySql(ctx: RenderContext, node: Node, accept: Accept, paginate = true): string {
  const t = quoteIdent('pgrst_t');
  if (accept.csv) {
    // PostgREST's CSV: the keys of the first row as the header, then each row as PostgreSQL's
    // record text without its parentheses (its quoting rules: "" around values with , " ( ) \ or spaces).
    const sub = selectSql(ctx, node, [], { paginate });
    const h = quoteIdent('pgrst_h');
    const header = `(select coalesce(string_agg(pgrst_k, ','), '') from (select json_object_keys(row_to_json(${h})) as pgrst_k from (select * from (${sub}) as ${h} limit 1) as ${h}) as pgrst_a)`;
    const rows = `coalesce(string_agg(substring(${t}::text, 2, length(${t}::text) - 2), chr(10)), '')`;
    return `select count(*) as n, ${header} || chr(10) || ${rows} as body from (${sub}) as ${t}`;
  }
  let json = accept.shape === 'object' ? `(json_agg(${t})->0)` : `coalesce(json_agg(${t}), '[]')`;
  if (accept.stripNulls) json = `json_strip_nulls(${json})`;
  const text = accept.shape === 'object' ? `coalesce(${json}::text, 'null')` : `${json}::text`;
  return `select count(*) as n, ${text} as body from (${selectSql(ctx, node, [], { paginate })}) as ${t}`;
}

export interface ReadStatements {
  read: Statement;
  /** `count=planned` (and `estimated` above max_rows): the rows whose EXPLAIN estimates the count. */
  plannedRows: Statement;
}

/** GET / HEAD: the rows (HEAD: only their number) and, for count=exact|estimated, the total. */
export function readStatements(plan: ReadPlan, accept: Accept, prefer: Preferences, head: boolean): ReadStatements {
  const ctx = RenderContext.of(plan);
  const node = plan.root;
  const total = prefer.count === 'exact' || prefer.count === 'estimated' ? `(${countSql(ctx, node)})` : 'null';
  const sql = head
    ? `select count(*) as n, ${total} as total, null as body from (${selectSql(ctx, node)}) as pgrst_t`
    : `select pgrst_r.n, ${total} as total, pgrst_r.body from (${bodySql(ctx, node, accept)}) as pgrst_r`;
  const read = ctx.statement(sql);
  // Rendered after the read, so it continues its parameters (the EXPLAIN is given them all).
  return { read, plannedRows: ctx.statement(rowsSql(ctx, node)) };
}

/**
 * POST / PATCH / DELETE: the change in a CTE, its rows exposed as MUTATION_SOURCE, and the
 * representation when asked. Null: nothing to change (an update without columns).
 */
export function mutationStatement(plan: MutationPlan, accept: Accept): Statement | null {
  const change = mutationSql(plan);
  if (!change) return null;
  const ctx = RenderContext.of(plan.representation, change.params);
  const body = plan.returnsRepresentation ? `(select pgrst_b.body from (${bodySql(ctx, plan.representation.root, accept, false)}) as pgrst_b)` : 'null';
  return ctx.statement(
    `with pgrst_ret as (${change.sql}), ${MUTATION_SOURCE} as (select (r).* from pgrst_ret) ` +
      `select (select count(*) from pgrst_ret) as n, (select count(*) from pgrst_ret where ins) as inserted, null as total, ${body} as body`,
  );
}

/** /rpc: the call in a materialized CTE (it runs once), then its rows read like a table's, or its scalar. */
export function callStatement(plan: CallPlan, accept: Accept, prefer: Preferences): Statement {
  const { call } = plan;
  const ctx = plan.rows ? RenderContext.of(plan.rows) : new RenderContext(call.schema);
  const source = `with ${CALL_SOURCE} as materialized (${callSql(call, ctx)}) `;
  if (plan.rows) {
    const node = plan.rows.root;
    const shape: Accept = call.fn.returnsSet ? accept : { ...accept, shape: 'object' };
    const total = prefer.count ? `(${countSql(ctx, node)})` : 'null';
    return ctx.statement(`${source}select pgrst_r.n, ${total} as total, pgrst_r.body from (${bodySql(ctx, node, shape)}) as pgrst_r`);
  }
  const { limit, offset } = plan;
  const rows = `(select pgrst_scalar from ${CALL_SOURCE}${limit !== undefined ? ` limit ${limit}` : ''}${offset ? ` offset ${offset}` : ''}) as pgrst_t`;
  const json = call.fn.returnsSet && accept.shape === 'array' ? `coalesce(json_agg(pgrst_scalar), '[]')::text` : `coalesce((json_agg(pgrst_scalar)->0)::text, 'null')`;
  return ctx.statement(`${source}select count(*) as n, ${prefer.count ? `(select count(*) from ${CALL_SOURCE})` : 'null'} as total, ${json} as body from ${rows}`);
}

/**
 * `select … from <function call>` producing the rows of the call; scalar results come out as one
 * column named pgrst_scalar. Named arguments come from one JSON parameter through json_to_record,
 * which converts JSON values (arrays, objects) to the argument types.
 */
function callSql(call: Call, ctx: RenderContext): string {
  const { fn } = call;
  const f = quoteIdent('pgrst_f');
  const columns = resultKind(fn) !== 'rows' ? `(${quoteIdent('pgrst_scalar')})` : '';
  const target = qualified(call.schema, fn.name);
  if (call.wholeBody) {
    // As PostgREST's OnePosParam: the request body itself is the one argument.
    const arg = inputArgs(fn)[0];
    return `select ${f}.* from ${target}(${ctx.param(JSON.stringify(call.args))}::${arg.type.sql}) as ${f}${columns}`;
  }
  const given = inputArgs(fn).filter((a) => a.name in call.args);
  if (!given.length) return `select ${f}.* from ${target}() as ${f}${columns}`;
  const a = quoteIdent('pgrst_args');
  const defs = given.map((x) => `${quoteIdent(x.name)} ${x.type.sql}`).join(', ');
  const named = given.map((x) => `${x.mode === 'v' ? 'variadic ' : ''}${quoteIdent(x.name)} => ${a}.${quoteIdent(x.name)}`).join(', ');
  return (
    `select ${f}.* from json_to_record(${ctx.param(JSON.stringify(call.args))}::json) as ${a}(${defs}) ` +
    `cross join lateral ${target}(${named}) as ${f}${columns}`
  );
}

/** `Accept: application/vnd.pgrst.plan`: the EXPLAIN of a statement (run, then rolled back). */
export function explainStatement(statement: Statement, plan: Plan): Statement {
  const options = [`format ${plan.format}`, ...plan.options].join(', ');
  return { sql: `explain (${options}) ${statement.sql}`, params: statement.params };
}

/** count=planned: the planner's estimate of the rows of a statement. */
export function estimateStatement(statement: Statement): Statement {
  return { sql: `explain (format json) ${statement.sql}`, params: statement.params };
}
