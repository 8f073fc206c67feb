// Rendering a read (GET, the representation of a mutation, the rows of an rpc) as one statement:
// embedded resources are correlated subqueries building their JSON with json_agg / row_to_json, so
// there is no N+1 and every value has PostgreSQL's JSON format on both engines. Pure: from a plan.
import { notImplemented } from './errors.ts';
import { quoteIdent } from './ident.ts';
import type { Embed, Node } from './plan.ts';
import type { RenderContext } from './render-context.ts';
import { fieldItemExpr, fromAs, joinCondition, orderList, whereList } from './render-where.ts';
import type { SelectItem } from './select-parser.ts';

/** `select <list> from <source> <joins> where <conds> order by … limit … offset …` for one level. */
export function selectSql(ctx: RenderContext, node: Node, extraWhere: string[] = [], options: { paginate?: boolean } = {}): string {
  const joins: string[] = [];
  const embedGroups: string[] = [];
  const list = selectList(ctx, node, joins, embedGroups);
  const where = [...extraWhere, ...whereList(ctx, node)];
  let sql = `select ${list.length ? list.join(', ') : ''} from ${fromAs(node)}`;
  if (joins.length) sql += ' ' + joins.join(' ');
  if (where.length) sql += ` where ${where.join(' and ')}`;
  const groups = groupList(ctx, node, embedGroups);
  if (groups.length) sql += ` group by ${groups.join(', ')}`;
  const order = orderList(ctx, node);
  if (order.length) sql += ` order by ${order.join(', ')}`;
  if (options.paginate !== false) {
    if (node.limit !== undefined) sql += ` limit ${node.limit}`;
    if (node.offset !== undefined && node.offset > 0) sql += ` offset ${node.offset}`;
  }
  return sql;
}

/** `select 1 from <source> where <conds>` of the top level (its EXPLAIN estimates count=planned). */
export function rowsSql(ctx: RenderContext, node: Node): string {
  const where = whereList(ctx, node);
  return `select 1 from ${fromAs(node)}${where.length ? ` where ${where.join(' and ')}` : ''}`;
}

/** `select count(*) from <source> where <conds>` of the top level. */
export function countSql(ctx: RenderContext, node: Node): string {
  const where = whereList(ctx, node);
  return `select count(*) from ${fromAs(node)}${where.length ? ` where ${where.join(' and ')}` : ''}`;
}

function selectList(ctx: RenderContext, node: Node, joins: string[], embedGroups: string[]): string[] {
  const out: string[] = [];
  const a = quoteIdent(node.alias);
  const aggregated = isAggregated(node);
  let embedIndex = 0;
  for (const item of node.items) {
    if (item.kind === 'star') {
      out.push(`${a}.*`);
    } else if (item.kind === 'field') {
      out.push(`${fieldItemExpr(ctx, node, item.field, item.cast)} as ${quoteIdent(fieldKey(item))}`);
    } else if (item.kind === 'aggregate') {
      const input = item.field ? fieldItemExpr(ctx, node, item.field, item.cast) : '*';
      const value = `${item.fn}(${input})`;
      out.push(`${item.outCast ? `(${value})::${item.outCast}` : value} as ${quoteIdent(item.alias ?? item.fn)}`);
    } else {
      const embed = node.embeds[embedIndex++];
      if (embed.hidden) continue;
      if (embed.spread) {
        out.push(...spreadList(ctx, node, embed, aggregated, joins, embedGroups));
      } else if (aggregated) {
        // Next to aggregates an embedded resource is a grouping column: its JSON, joined laterally,
        // grouped by its text (json has no equality) and given back as json.
        const lateral = quoteIdent(ctx.alias('l'));
        joins.push(`left join lateral (select ${embedExpr(ctx, node, embed)} as v) as ${lateral} on true`);
        embedGroups.push(`${lateral}.v::text`);
        out.push(`(${lateral}.v::text)::json as ${quoteIdent(embed.key)}`);
      } else {
        out.push(`${embedExpr(ctx, node, embed)} as ${quoteIdent(embed.key)}`);
      }
    }
  }
  return out;
}

/**
 * A spread embed's columns in the parent's select list (PostgREST 13's spreads):
 *   - to-one: the child's row, joined laterally, its columns become the parent's;
 *   - to-many: each column becomes the array of the related rows' values;
 *   - to-one next to aggregates (the parent's, or the child's own, hoisted into the parent): the
 *     child's columns are grouping columns and its aggregates are computed there.
 */
function spreadList(ctx: RenderContext, node: Node, embed: Embed, aggregated: boolean, joins: string[], groups: string[]): string[] {
  const lateral = quoteIdent(ctx.alias('s'));
  const cond = joinCondition(ctx, node, embed);
  const child = embed.node;
  if (isToMany(embed)) {
    const x = quoteIdent(ctx.alias('x'));
    const keys = outputKeys(child);
    const cols = keys.map((k) => `coalesce(json_agg(${x}.${quoteIdent(k)}), '[]')::jsonb as ${quoteIdent(k)}`);
    joins.push(`left join lateral (select ${cols.join(', ') || 'null as pgrst_none'} from (${selectSql(ctx, child, [cond])}) as ${x}) as ${lateral} on true`);
    if (aggregated) groups.push(...keys.map((k) => `${lateral}.${quoteIdent(k)}`));
    return keys.map((k) => `${lateral}.${quoteIdent(k)}`);
  }
  if (!aggregated) {
    joins.push(`left join lateral (${selectSql(ctx, child, [cond])} limit 1) as ${lateral} on true`);
    return [`${lateral}.*`];
  }
  const inner: string[] = [];
  const out: string[] = [];
  const c = quoteIdent(child.alias);
  for (const item of child.items) {
    if (item.kind === 'star') {
      for (const col of child.source.columns.keys()) {
        inner.push(`${c}.${quoteIdent(col)}`);
        out.push(`${lateral}.${quoteIdent(col)}`);
        groups.push(`${lateral}.${quoteIdent(col)}`);
      }
    } else if (item.kind === 'field') {
      const key = quoteIdent(fieldKey(item));
      inner.push(`${fieldItemExpr(ctx, child, item.field, item.cast)} as ${key}`);
      out.push(`${lateral}.${key}`);
      groups.push(`${lateral}.${key}`);
    } else if (item.kind === 'aggregate') {
      // count() counts the related rows (a missing one is a NULL row); the others aggregate a column.
      let arg = lateral;
      if (item.field) {
        arg = `${lateral}.${quoteIdent(ctx.alias('a'))}`;
        inner.push(`${fieldItemExpr(ctx, child, item.field, item.cast)} as ${arg.slice(lateral.length + 1)}`);
      }
      const value = `${item.fn}(${arg})`;
      out.push(`${item.outCast ? `(${value})::${item.outCast}` : value} as ${quoteIdent(item.alias ?? item.fn)}`);
    } else {
      throw notImplemented('Embedded resources inside a spread next to aggregate functions are not supported by local-supabase');
    }
  }
  joins.push(`left join lateral (select ${inner.join(', ') || 'null as pgrst_none'} from ${fromAs(child)} where ${[cond, ...whereList(ctx, child)].join(' and ')} limit 1) as ${lateral} on true`);
  return out;
}

/** The keys of the JSON objects a level produces (the columns a to-many spread turns into arrays). */
function outputKeys(node: Node): string[] {
  const keys: string[] = [];
  let embedIndex = 0;
  for (const item of node.items) {
    if (item.kind === 'star') keys.push(...node.source.columns.keys());
    else if (item.kind === 'field') keys.push(fieldKey(item));
    else if (item.kind === 'aggregate') keys.push(item.alias ?? item.fn);
    else {
      const embed = node.embeds[embedIndex++];
      if (embed.hidden) continue;
      if (embed.spread) keys.push(...outputKeys(embed.node));
      else keys.push(embed.key);
    }
  }
  return [...new Set(keys)];
}

/** Whether a level aggregates: its own aggregates, or those of a to-one spread, hoisted into it. */
function isAggregated(node: Node): boolean {
  return node.items.some((i) => i.kind === 'aggregate') || node.embeds.some((e) => e.spread && !isToMany(e) && isAggregated(e.node));
}

/** With aggregates, the other selected columns are the groups (PostgREST's implicit GROUP BY). */
function groupList(ctx: RenderContext, node: Node, embedGroups: string[]): string[] {
  if (!isAggregated(node)) return [];
  const out: string[] = [...embedGroups];
  for (const item of node.items) {
    if (item.kind === 'field') out.push(fieldItemExpr(ctx, node, item.field, item.cast));
    else if (item.kind === 'star') for (const col of node.source.columns.keys()) out.push(`${quoteIdent(node.alias)}.${quoteIdent(col)}`);
  }
  return out;
}

function embedExpr(ctx: RenderContext, parent: Node, embed: Embed): string {
  const cond = joinCondition(ctx, parent, embed);
  const toMany = isToMany(embed);
  const child = embed.node;
  if (embed.countOnly) {
    const where = [cond, ...whereList(ctx, child)].join(' and ');
    const count = `(select count(*) from ${fromAs(child)} where ${where})`;
    return toMany ? `json_build_array(json_build_object('count', ${count}))` : `json_build_object('count', ${count})`;
  }
  const sub = selectSql(ctx, child, [cond], { paginate: toMany });
  const e = quoteIdent(ctx.alias('e'));
  if (toMany) return `coalesce((select json_agg(${e}) from (${sub}) as ${e}), '[]')`;
  return `(select row_to_json(${e}) from (${sub} limit 1) as ${e})`;
}

const isToMany = (e: Embed) => e.rel.cardinality === 'o2m' || e.rel.cardinality === 'm2m';

/** The key of a selected column: its alias, else the last JSON path key, else its name. */
function fieldKey(item: Extract<SelectItem, { kind: 'field' }>): string {
  return item.alias ?? (item.field.json.length ? item.field.json[item.field.json.length - 1].key : item.field.name);
}
