// Rendering the parts of a level that name its rows: the FROM item, column references (with JSON
// paths and computed fields), the WHERE conditions, the join to the parent and the ORDER BY.
// Pure: everything comes from the plan; names are quoted, values bound as parameters.
import type { PgType } from './catalog.ts';
import { columnNotFound, parseError, pgrstError } from './errors.ts';
import { qualified, quoteIdent } from './ident.ts';
import type { Embed, Node, Source } from './plan.ts';
import type { Condition, Filter } from './query-params.ts';
import type { RenderContext } from './render-context.ts';
import type { Field } from './select-parser.ts';

/** The FROM item of a level (without its alias). */
export function fromSql(source: Source): string {
  const from = source.from;
  if (from.kind === 'table') return qualified(from.schema, from.name);
  if (from.kind === 'cte') return from.name;
  return `${qualified(from.schema, from.name)}(${rowExpr(from.parent, from.schema)})`;
}

/** `from <source> as <alias>` of a level. */
export function fromAs(node: Node): string {
  return `${fromSql(node.source)} as ${quoteIdent(node.alias)}`;
}

/** The row of a level as its table's row type (the argument of computed fields and relationships). */
function rowExpr(node: Node, schema: string): string {
  const a = quoteIdent(node.alias);
  const table = node.source.table;
  if (!table || node.source.from.kind === 'table') return a;
  // A CTE or function result with the table's columns: rebuild the row as the table's type.
  const cols = [...node.source.columns.keys()].map((c) => `${a}.${quoteIdent(c)}`);
  return `row(${cols.join(', ')})::${qualified(schema, table)}`;
}

/** A column reference with its JSON path, and the SQL type values compared with it take. */
export function fieldExpr(ctx: RenderContext, node: Node, field: Field): { expr: string; type: string; pgType: PgType } {
  let type = node.source.columns.get(field.name);
  let expr = `${quoteIdent(node.alias)}.${quoteIdent(field.name)}`;
  if (!type) {
    // A computed field: a function of the row, usable like a column.
    const fn = node.computedFields.get(field.name);
    if (!fn) throw columnNotFound(node.source.sqlName ?? node.source.label, field.name);
    type = fn.returnType;
    expr = `${qualified(ctx.schema, fn.name)}(${rowExpr(node, ctx.schema)})`;
  }
  let sqlType = type.sql;
  for (const step of field.json) {
    const key = /^-?\d+$/.test(step.key) ? String(Number(step.key)) : ctx.param(step.key);
    expr = `(${expr}${step.arrow}${key})`;
    sqlType = step.arrow === '->>' ? 'text' : type.name === 'json' ? 'json' : 'jsonb';
  }
  return { expr, type: sqlType, pgType: type };
}

/** A selected column's expression with its `::cast`. */
export function fieldItemExpr(ctx: RenderContext, node: Node, field: Field, cast: string | undefined): string {
  const { expr } = fieldExpr(ctx, node, field);
  return cast ? `(${expr})::${cast}` : expr;
}

/** The WHERE conditions of a level: its filters, and `!inner` embeds that must have a row. */
export function whereList(ctx: RenderContext, node: Node): string[] {
  const out = node.conditions.map((c) => conditionSql(ctx, node, c));
  for (const embed of node.embeds) {
    if (embed.inner) out.push(existsSql(ctx, node, embed, false));
  }
  return out;
}

/** The condition linking an embedded level to its parent row. */
export function joinCondition(ctx: RenderContext, parent: Node, embed: Embed): string {
  const p = quoteIdent(parent.alias);
  const c = quoteIdent(embed.node.alias);
  const rel = embed.rel;
  // A computed relationship's rows already belong to the parent row.
  if (embed.computed) return 'true';
  if (rel.junction) {
    const j = quoteIdent(ctx.alias('j'));
    const { fromFk, toFk } = rel.junction;
    const conds = [
      ...fromFk.columns.map((col, i) => `${j}.${quoteIdent(col)} = ${p}.${quoteIdent(fromFk.refColumns[i])}`),
      ...toFk.columns.map((col, i) => `${j}.${quoteIdent(col)} = ${c}.${quoteIdent(toFk.refColumns[i])}`),
    ];
    return `exists (select 1 from ${qualified(ctx.schema, rel.junction.table)} as ${j} where ${conds.join(' and ')})`;
  }
  return rel.join.map(([from, to]) => `${c}.${quoteIdent(to)} = ${p}.${quoteIdent(from)}`).join(' and ');
}

function existsSql(ctx: RenderContext, node: Node, embed: Embed, negate: boolean): string {
  const where = [joinCondition(ctx, node, embed), ...whereList(ctx, embed.node)].join(' and ');
  return `${negate ? 'not ' : ''}exists (select 1 from ${fromAs(embed.node)} where ${where})`;
}

function conditionSql(ctx: RenderContext, node: Node, c: Condition): string {
  if (c.kind === 'embedNull') {
    const embed = node.embeds.find((e) => e.key === c.embed)!;
    return existsSql(ctx, node, embed, c.isNull);
  }
  if (c.kind === 'logic') {
    if (!c.children.length) return c.negate ? 'false' : 'true';
    const inner = c.children.map((x) => conditionSql(ctx, node, x)).join(c.op === 'and' ? ' and ' : ' or ');
    return `${c.negate ? 'not ' : ''}(${inner})`;
  }
  const f = c.filter;
  // `rel=is.null` / `rel=not.is.null`: filter the parent by the presence of an embedded row.
  if (f.op === 'is' && f.value === 'null' && !f.field.json.length && !node.source.columns.has(f.field.name)) {
    const embed = node.embeds.find((e) => e.key === f.field.name);
    if (embed) return existsSql(ctx, node, embed, !f.negate);
  }
  return filterSql(ctx, node, f);
}

const SIMPLE_OPS: Record<string, string> = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=', cs: '@>', cd: '<@', ov: '&&', sl: '<<', sr: '>>', nxr: '&<', nxl: '&>', adj: '-|-' };
const TEXT_OPS: Record<string, string> = { like: 'like', ilike: 'ilike', match: '~', imatch: '~*' };
const FTS_FUNCTIONS: Record<string, string> = { fts: 'to_tsquery', plfts: 'plainto_tsquery', phfts: 'phraseto_tsquery', wfts: 'websearch_to_tsquery' };

function filterSql(ctx: RenderContext, node: Node, f: Filter): string {
  const { expr, type } = fieldExpr(ctx, node, f.field);
  const typed = (v: string) => `${ctx.param(v)}::${type}`;
  const text = (v: string) => ctx.param(v);
  const like = (v: string) => text(v.replaceAll('*', '%'));
  let sql: string;
  if (f.quantifier) {
    const values = f.value as string[];
    const op = SIMPLE_OPS[f.op] ?? TEXT_OPS[f.op];
    const conv = TEXT_OPS[f.op] ? (f.op === 'like' || f.op === 'ilike' ? like : text) : typed;
    sql = values.length ? `${expr} ${op} ${f.quantifier}(array[${values.map(conv).join(', ')}])` : f.quantifier === 'all' ? 'true' : 'false';
  } else if (f.op in SIMPLE_OPS) {
    sql = `${expr} ${SIMPLE_OPS[f.op]} ${typed(f.value as string)}`;
  } else if (f.op === 'like' || f.op === 'ilike') {
    sql = `${expr} ${f.op} ${like(f.value as string)}`;
  } else if (f.op in TEXT_OPS) {
    sql = `${expr} ${TEXT_OPS[f.op]} ${text(f.value as string)}`;
  } else if (f.op === 'is') {
    sql = `${expr} is ${f.value === 'not_null' ? 'not null' : f.value}`;
  } else if (f.op === 'isdistinct') {
    sql = `${expr} is distinct from ${typed(f.value as string)}`;
  } else if (f.op === 'in') {
    const values = f.value as string[];
    sql = values.length ? `${expr} in (${values.map(typed).join(', ')})` : 'false';
  } else {
    const fn = FTS_FUNCTIONS[f.op];
    if (!fn) throw parseError('filter', f.op, 'unknown operator');
    const config = f.config ? `${text(f.config)}::regconfig, ` : '';
    const vector = type === 'tsvector' ? expr : `to_tsvector(${config}${expr})`;
    sql = `${vector} @@ ${fn}(${config}${text(f.value as string)})`;
  }
  return f.negate ? `not (${sql})` : sql;
}

/** The ORDER BY terms of a level; `rel(col)` orders by a column of a to-one embed. */
export function orderList(ctx: RenderContext, node: Node): string[] {
  return node.order.map((t) => {
    let expr: string;
    if (t.relation) {
      const embed = node.embeds.find((e) => e.key === t.relation || e.name === t.relation);
      if (!embed || embed.rel.cardinality === 'o2m' || embed.rel.cardinality === 'm2m') {
        throw pgrstError(400, 'PGRST118', `A related order on '${t.relation}' is not possible`, `'${node.source.label}' and '${t.relation}' do not form a many-to-one or one-to-one relationship, or '${t.relation}' is not embedded`);
      }
      const { expr: col } = fieldExpr(ctx, embed.node, t.field);
      expr = `(select ${col} from ${fromAs(embed.node)} where ${joinCondition(ctx, node, embed)} limit 1)`;
    } else {
      expr = fieldExpr(ctx, node, t.field).expr;
    }
    return `${expr} ${t.desc ? 'desc' : 'asc'}${t.nulls ? ` nulls ${t.nulls}` : ''}`;
  });
}
