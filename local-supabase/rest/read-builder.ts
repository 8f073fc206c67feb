// Builds the SQL of a read (GET, the representation of a mutation, the result of an rpc) in one
// statement: embedded resources are correlated subqueries building their JSON with json_agg /
// row_to_json, so there is no N+1 and every value has PostgreSQL's JSON format on both engines.
// Names are resolved against the schema cache and quoted; every user value is a bound parameter.
import { HttpError } from '../http.ts';
import type { CatalogFunction, PgType } from './catalog.ts';
import { closest, parseError, pgrstError, columnNotFound, notImplemented } from './errors.ts';
import { qualified, quoteIdent } from './ident.ts';
import type { Condition, Filter, OrderTerm, ParsedQuery } from './query-params.ts';
import { applyHint, type Relationship, type SchemaCache } from './schema-cache.ts';
import type { Field, SelectItem } from './select-parser.ts';

/** Bound parameters of one statement; every value travels as text and is cast in SQL. */
export class Params {
  readonly values: (string | null)[] = [];
  add(value: string | null): string {
    this.values.push(value);
    return `$${this.values.length}::text`;
  }
}

/** What a level of the query reads from. */
export interface Source {
  /** SQL of the FROM item (a quoted table, a CTE name, a function call). */
  sql: string;
  /** Name used in error messages. */
  label: string;
  /** The name PostgreSQL reports for this level in its own errors (PostgREST's alias `<table>_<depth>`). */
  sqlName?: string;
  columns: Map<string, PgType>;
  /** The public table this source is, for relationships (null: none can be embedded). */
  table: string | null;
}

interface Embed {
  key: string;
  name: string;
  rel: Relationship;
  node: Node;
  inner: boolean;
  spread: boolean;
  /** `rel()` with no columns: only used to filter the parent. */
  hidden: boolean;
  /** `rel(count)`: the number of related rows. */
  countOnly: boolean;
  /** A computed relationship: a function taking the parent row and returning the related rows. */
  computed?: CatalogFunction;
}

export interface Node {
  source: Source;
  alias: string;
  path: string;
  items: SelectItem[];
  embeds: Embed[];
  conditions: Condition[];
  order: OrderTerm[];
  limit?: number;
  offset?: number;
}

export class ReadBuilder {
  private aliasCount = 0;
  private readonly usedPaths = new Set<string>(['']);

  constructor(
    private readonly cache: SchemaCache,
    private readonly q: ParsedQuery,
    readonly params: Params = new Params(),
    /** PostgREST's db-aggregates-enabled. */
    private readonly aggregatesEnabled = false,
  ) {}

  nextAlias(prefix = 't'): string {
    return `pgrst_${prefix}${this.aliasCount++}`;
  }

  /** Resolves the select tree against the cache (reloading it on a miss). */
  async plan(source: Source, items: SelectItem[], alias = this.nextAlias()): Promise<Node> {
    const node = await this.planNode(source, items, '', alias);
    for (const map of [this.q.conditions, this.q.order, this.q.limit, this.q.offset]) {
      for (const path of map.keys()) {
        if (!this.usedPaths.has(path)) {
          throw pgrstError(400, 'PGRST108', `'${path}' is not an embedded resource in this request`, null,
            `Verify that '${path}' is included in the 'select' query parameter.`);
        }
      }
    }
    return node;
  }

  private async planNode(source: Source, items: SelectItem[], path: string, alias: string, depth = 0): Promise<Node> {
    this.usedPaths.add(path);
    const node: Node = {
      source,
      alias,
      path,
      items,
      embeds: [],
      conditions: this.q.conditions.get(path) ?? [],
      order: this.q.order.get(path) ?? [],
      limit: this.q.limit.get(path),
      offset: this.q.offset.get(path),
    };
    const hasAggregates = items.some((i) => i.kind === 'aggregate');
    if (hasAggregates && !this.aggregatesEnabled) throw pgrstError(400, 'PGRST123', 'Use of aggregate functions is not allowed');
    // PostgREST names each embed's lateral join `<table>_<embed>_<depth>`: the same name twice among
    // siblings is PostgreSQL's error, which PostgREST passes on.
    const joinNames = new Set<string>();
    for (const item of items) {
      if (item.kind !== 'embed') continue;
      if (!source.table) {
        throw pgrstError(400, 'PGRST200', `Could not find a relationship between '${source.label}' and '${item.name}' in the schema cache`);
      }
      const computed = item.hint ? undefined : await this.cache.lookup(() => this.cache.rowFunction(source.table!, item.name, 'relationship'));
      const rel = computed ? computedRelationship(source.table, computed) : await this.resolveRelationship(source.table, item.name, item.hint);
      const target = this.cache.table(rel.to)!;
      const key = item.alias ?? item.name;
      const childPath = path ? `${path}.${key}` : key;
      // Filters may address an embed by its alias or its name.
      if (item.alias && item.alias !== item.name) this.mergePath(path ? `${path}.${item.name}` : item.name, childPath);
      const joinName = `${source.table}_${key}_${depth + 1}`;
      if (joinNames.has(joinName)) throw pgrstError(400, '42712', `table name "${joinName}" specified more than once`);
      joinNames.add(joinName);
      const countOnly =
        item.children.length === 1 &&
        item.children[0].kind === 'field' &&
        item.children[0].field.name === 'count' &&
        item.children[0].field.json.length === 0 &&
        !target.columnMap.has('count');
      const childSql = computed ? `${qualified(this.cache.schema, computed.name)}(${this.rowExpr(node)})` : qualified(this.cache.schema, target.name);
      const child = await this.planNode(
        {
          sql: childSql,
          label: target.name,
          // A many-to-many embed reads its table unaliased; the others as `<table>_<depth>`.
          sqlName: rel.cardinality === 'm2m' ? target.name : `${target.name}_${depth + 1}`,
          columns: columnTypes(target.columns),
          table: target.name,
        },
        countOnly ? [] : item.children,
        childPath,
        this.nextAlias(),
        depth + 1,
      );
      node.embeds.push({ key, name: item.name, rel, node: child, inner: item.inner, spread: item.spread, hidden: item.children.length === 0, countOnly, computed });
    }
    return node;
  }

  private mergePath(from: string, to: string) {
    for (const map of [this.q.conditions, this.q.order] as Map<string, unknown[]>[]) {
      const extra = map.get(from);
      if (extra) {
        map.set(to, [...(map.get(to) ?? []), ...extra]);
        map.delete(from);
      }
    }
    for (const map of [this.q.limit, this.q.offset]) {
      const v = map.get(from);
      if (v !== undefined) {
        map.set(to, v);
        map.delete(from);
      }
    }
  }

  private async resolveRelationship(from: string, target: string, hint: string | undefined): Promise<Relationship> {
    const found = await this.cache.lookup(() => {
      const rels = applyHint(this.cache.relationships(from, target), target, hint);
      return rels.length ? rels : undefined;
    });
    if (!found) {
      // PostgREST suggests a close table name: for the target among what `from` relates to, or for
      // `from` itself when it takes part in no relationship.
      const related = this.cache.relatedTables();
      let suggestion: string | null = null;
      if (related.has(from)) {
        const s = closest(target, this.cache.embeddableFrom(from), 0.33);
        if (s) suggestion = `Perhaps you meant '${s}' instead of '${target}'.`;
      } else {
        const s = closest(from, related, 0.33);
        if (s) suggestion = `Perhaps you meant '${s}' instead of '${from}'.`;
      }
      throw pgrstError(
        400,
        'PGRST200',
        `Could not find a relationship between '${from}' and '${target}' in the schema cache`,
        `Searched for a foreign key relationship between '${from}' and '${target}'${hint ? ` using the hint '${hint}'` : ''} in the schema '${this.cache.schema}', but no matches were found.`,
        suggestion,
      );
    }
    if (found.length > 1) {
      throw new HttpError(300, {
        code: 'PGRST201',
        details: found.map((r) => ({
          cardinality: r.cardinality === 'm2o' ? 'many-to-one' : r.cardinality === 'o2m' ? 'one-to-many' : r.cardinality === 'o2o' ? 'one-to-one' : 'many-to-many',
          embedding: `${from} with ${r.to}`,
          relationship: r.junction
            ? `${r.junction.table} using ${r.junction.fromFk.name}(${r.junction.fromFk.columns.join(', ')}) and ${r.junction.toFk.name}(${r.junction.toFk.columns.join(', ')})`
            : `${r.fk.name} using ${from}(${r.join.map(([a]) => a).join(', ')}) and ${r.to}(${r.join.map(([, b]) => b).join(', ')})`,
        })),
        hint: `Try changing '${target}' to one of the following: ${found.map((r) => `'${r.to}!${r.junction ? r.junction.table : r.fk.name}'`).join(', ')}. Find the desired relationship in the 'details' key.`,
        message: `Could not embed because more than one relationship was found for '${from}' and '${target}'`,
      });
    }
    return found[0];
  }

  // ── rendering ────────────────────────────────────────────────────────────────────────────

  /** `select <list> from <source> <joins> where <conds> order by … limit … offset …` for one level. */
  selectSql(node: Node, extraWhere: string[] = [], options: { paginate?: boolean } = {}): string {
    const joins: string[] = [];
    const embedGroups: string[] = [];
    const list = this.selectList(node, joins, embedGroups);
    const where = [...extraWhere, ...this.whereList(node)];
    let sql = `select ${list.length ? list.join(', ') : ''} from ${node.source.sql} as ${quoteIdent(node.alias)}`;
    if (joins.length) sql += ' ' + joins.join(' ');
    if (where.length) sql += ` where ${where.join(' and ')}`;
    const groups = this.groupList(node, embedGroups);
    if (groups.length) sql += ` group by ${groups.join(', ')}`;
    const order = this.orderList(node);
    if (order.length) sql += ` order by ${order.join(', ')}`;
    if (options.paginate !== false) {
      if (node.limit !== undefined) sql += ` limit ${node.limit}`;
      if (node.offset !== undefined && node.offset > 0) sql += ` offset ${node.offset}`;
    }
    return sql;
  }

  /** `select 1 from <source> where <conds>` of the top level (its EXPLAIN estimates count=planned). */
  rowsSql(node: Node): string {
    const where = this.whereList(node);
    return `select 1 from ${node.source.sql} as ${quoteIdent(node.alias)}${where.length ? ` where ${where.join(' and ')}` : ''}`;
  }

  /** `select count(*) from <source> where <conds>` of the top level. */
  countSql(node: Node): string {
    const where = this.whereList(node);
    return `select count(*) from ${node.source.sql} as ${quoteIdent(node.alias)}${where.length ? ` where ${where.join(' and ')}` : ''}`;
  }

  private selectList(node: Node, joins: string[], embedGroups: string[]): string[] {
    const out: string[] = [];
    const a = quoteIdent(node.alias);
    const aggregated = this.isAggregated(node);
    let embedIndex = 0;
    for (const item of node.items) {
      if (item.kind === 'star') {
        out.push(`${a}.*`);
      } else if (item.kind === 'field') {
        out.push(`${this.fieldItemExpr(node, item.field, item.cast)} as ${quoteIdent(fieldKey(item))}`);
      } else if (item.kind === 'aggregate') {
        const input = item.field ? this.fieldItemExpr(node, item.field, item.cast) : '*';
        const value = `${item.fn}(${input})`;
        out.push(`${item.outCast ? `(${value})::${item.outCast}` : value} as ${quoteIdent(item.alias ?? item.fn)}`);
      } else {
        const embed = node.embeds[embedIndex++];
        if (embed.hidden) continue;
        if (embed.spread) {
          out.push(...this.spreadList(node, embed, aggregated, joins, embedGroups));
        } else if (aggregated) {
          // Next to aggregates an embedded resource is a grouping column: its JSON, joined laterally,
          // grouped by its text (json has no equality) and given back as json.
          const lateral = quoteIdent(this.nextAlias('l'));
          joins.push(`left join lateral (select ${this.embedExpr(node, embed)} as v) as ${lateral} on true`);
          embedGroups.push(`${lateral}.v::text`);
          out.push(`(${lateral}.v::text)::json as ${quoteIdent(embed.key)}`);
        } else {
          out.push(`${this.embedExpr(node, embed)} as ${quoteIdent(embed.key)}`);
        }
      }
    }
    return out;
  }

  private fieldItemExpr(node: Node, field: Field, cast: string | undefined): string {
    const { expr } = this.fieldExpr(node, field);
    return cast ? `(${expr})::${cast}` : expr;
  }

  /**
   * A spread embed's columns in the parent's select list (PostgREST 13's spreads):
   *   - to-one: the child's row, joined laterally, its columns become the parent's;
   *   - to-many: each column becomes the array of the related rows' values;
   *   - to-one next to aggregates (the parent's, or the child's own, hoisted into the parent): the
   *     child's columns are groups of the parent and its aggregates are computed there.
   */
  private spreadList(node: Node, embed: Embed, aggregated: boolean, joins: string[], groups: string[]): string[] {
    const lateral = quoteIdent(this.nextAlias('s'));
    const cond = this.joinCondition(node, embed);
    const child = embed.node;
    if (isToMany(embed)) {
      const x = quoteIdent(this.nextAlias('x'));
      const keys = this.outputKeys(child);
      const cols = keys.map((k) => `coalesce(json_agg(${x}.${quoteIdent(k)}), '[]')::jsonb as ${quoteIdent(k)}`);
      joins.push(`left join lateral (select ${cols.join(', ') || 'null as pgrst_none'} from (${this.selectSql(child, [cond])}) as ${x}) as ${lateral} on true`);
      if (aggregated) groups.push(...keys.map((k) => `${lateral}.${quoteIdent(k)}`));
      return keys.map((k) => `${lateral}.${quoteIdent(k)}`);
    }
    if (!aggregated) {
      joins.push(`left join lateral (${this.selectSql(child, [cond])} limit 1) as ${lateral} on true`);
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
        inner.push(`${this.fieldItemExpr(child, item.field, item.cast)} as ${key}`);
        out.push(`${lateral}.${key}`);
        groups.push(`${lateral}.${key}`);
      } else if (item.kind === 'aggregate') {
        // count() counts the related rows (a missing one is a NULL row); the others aggregate a column.
        let arg = lateral;
        if (item.field) {
          arg = `${lateral}.${quoteIdent(this.nextAlias('a'))}`;
          inner.push(`${this.fieldItemExpr(child, item.field, item.cast)} as ${arg.slice(lateral.length + 1)}`);
        }
        const value = `${item.fn}(${arg})`;
        out.push(`${item.outCast ? `(${value})::${item.outCast}` : value} as ${quoteIdent(item.alias ?? item.fn)}`);
      } else {
        throw notImplemented('Embedded resources inside a spread next to aggregate functions are not supported by local-supabase');
      }
    }
    joins.push(`left join lateral (select ${inner.join(', ') || 'null as pgrst_none'} from ${child.source.sql} as ${c} where ${[cond, ...this.whereList(child)].join(' and ')} limit 1) as ${lateral} on true`);
    return out;
  }

  /** The keys of the JSON objects a level produces (the columns a to-many spread turns into arrays). */
  private outputKeys(node: Node): string[] {
    const keys: string[] = [];
    let embedIndex = 0;
    for (const item of node.items) {
      if (item.kind === 'star') keys.push(...node.source.columns.keys());
      else if (item.kind === 'field') keys.push(fieldKey(item));
      else if (item.kind === 'aggregate') keys.push(item.alias ?? item.fn);
      else {
        const embed = node.embeds[embedIndex++];
        if (embed.hidden) continue;
        if (embed.spread) keys.push(...this.outputKeys(embed.node));
        else keys.push(embed.key);
      }
    }
    return [...new Set(keys)];
  }

  /** Whether a level aggregates: its own aggregates, or those of a to-one spread, hoisted into it. */
  private isAggregated(node: Node): boolean {
    return node.items.some((i) => i.kind === 'aggregate') || node.embeds.some((e) => e.spread && !isToMany(e) && this.isAggregated(e.node));
  }

  /** With aggregates, the other selected columns are the groups (PostgREST's implicit GROUP BY). */
  private groupList(node: Node, embedGroups: string[]): string[] {
    if (!this.isAggregated(node)) return [];
    const out: string[] = [...embedGroups];
    for (const item of node.items) {
      if (item.kind === 'field') out.push(this.fieldItemExpr(node, item.field, item.cast));
      else if (item.kind === 'star') for (const col of node.source.columns.keys()) out.push(`${quoteIdent(node.alias)}.${quoteIdent(col)}`);
    }
    return out;
  }

  /** The row of a level as its table's row type (the argument of computed fields and relationships). */
  private rowExpr(node: Node): string {
    const a = quoteIdent(node.alias);
    const table = node.source.table;
    if (!table || node.source.sql === qualified(this.cache.schema, table)) return a;
    // A CTE or function result with the table's columns: rebuild the row as the table's type.
    const cols = [...node.source.columns.keys()].map((c) => `${a}.${quoteIdent(c)}`);
    return `row(${cols.join(', ')})::${qualified(this.cache.schema, table)}`;
  }

  private embedExpr(parent: Node, embed: Embed): string {
    const cond = this.joinCondition(parent, embed);
    const toMany = embed.rel.cardinality === 'o2m' || embed.rel.cardinality === 'm2m';
    const child = embed.node;
    if (embed.countOnly) {
      const where = [cond, ...this.whereList(child)].join(' and ');
      const count = `(select count(*) from ${child.source.sql} as ${quoteIdent(child.alias)} where ${where})`;
      return toMany ? `json_build_array(json_build_object('count', ${count}))` : `json_build_object('count', ${count})`;
    }
    const sub = this.selectSql(child, [cond], { paginate: toMany });
    const e = quoteIdent(this.nextAlias('e'));
    if (toMany) return `coalesce((select json_agg(${e}) from (${sub}) as ${e}), '[]')`;
    return `(select row_to_json(${e}) from (${sub} limit 1) as ${e})`;
  }

  /** The condition linking an embedded level to its parent row. */
  private joinCondition(parent: Node, embed: Embed): string {
    const p = quoteIdent(parent.alias);
    const c = quoteIdent(embed.node.alias);
    const rel = embed.rel;
    // A computed relationship's rows already belong to the parent row.
    if (embed.computed) return 'true';
    if (rel.junction) {
      const j = quoteIdent(this.nextAlias('j'));
      const { fromFk, toFk } = rel.junction;
      const conds = [
        ...fromFk.columns.map((col, i) => `${j}.${quoteIdent(col)} = ${p}.${quoteIdent(fromFk.refColumns[i])}`),
        ...toFk.columns.map((col, i) => `${j}.${quoteIdent(col)} = ${c}.${quoteIdent(toFk.refColumns[i])}`),
      ];
      return `exists (select 1 from ${qualified(this.cache.schema, rel.junction.table)} as ${j} where ${conds.join(' and ')})`;
    }
    return rel.join.map(([from, to]) => `${c}.${quoteIdent(to)} = ${p}.${quoteIdent(from)}`).join(' and ');
  }

  whereList(node: Node): string[] {
    const out = node.conditions.map((c) => this.conditionSql(node, c));
    for (const embed of node.embeds) {
      if (embed.inner) out.push(this.existsSql(node, embed, false));
    }
    return out;
  }

  private existsSql(node: Node, embed: Embed, negate: boolean): string {
    const where = [this.joinCondition(node, embed), ...this.whereList(embed.node)].join(' and ');
    return `${negate ? 'not ' : ''}exists (select 1 from ${embed.node.source.sql} as ${quoteIdent(embed.node.alias)} where ${where})`;
  }

  private conditionSql(node: Node, c: Condition): string {
    if (c.kind === 'embedNull') {
      const embed = node.embeds.find((e) => e.key === c.embed)!;
      return this.existsSql(node, embed, c.isNull);
    }
    if (c.kind === 'logic') {
      if (!c.children.length) return c.negate ? 'false' : 'true';
      const inner = c.children.map((x) => this.conditionSql(node, x)).join(c.op === 'and' ? ' and ' : ' or ');
      return `${c.negate ? 'not ' : ''}(${inner})`;
    }
    const f = c.filter;
    // `rel=is.null` / `rel=not.is.null`: filter the parent by the presence of an embedded row.
    if (f.op === 'is' && f.value === 'null' && !f.field.json.length && !node.source.columns.has(f.field.name)) {
      const embed = node.embeds.find((e) => e.key === f.field.name);
      if (embed) return this.existsSql(node, embed, !f.negate);
    }
    return this.filterSql(node, f);
  }

  /** A column reference with its JSON path, and the SQL type values compared with it take. */
  fieldExpr(node: Node, field: Field): { expr: string; type: string; pgType: PgType } {
    let type = node.source.columns.get(field.name);
    let expr = `${quoteIdent(node.alias)}.${quoteIdent(field.name)}`;
    if (!type) {
      // A computed field: a function of the row, usable like a column.
      const fn = node.source.table ? this.cache.rowFunction(node.source.table, field.name, 'field') : undefined;
      if (!fn) throw columnNotFound(node.source.sqlName ?? node.source.label, field.name);
      type = fn.returnType;
      expr = `${qualified(this.cache.schema, fn.name)}(${this.rowExpr(node)})`;
    }
    let sqlType = type.sql;
    for (const step of field.json) {
      const key = /^-?\d+$/.test(step.key) ? String(Number(step.key)) : this.params.add(step.key);
      expr = `(${expr}${step.arrow}${key})`;
      sqlType = step.arrow === '->>' ? 'text' : type.name === 'json' ? 'json' : 'jsonb';
    }
    return { expr, type: sqlType, pgType: type };
  }

  private filterSql(node: Node, f: Filter): string {
    const { expr, type } = this.fieldExpr(node, f.field);
    const typed = (v: string) => `${this.params.add(v)}::${type}`;
    const text = (v: string) => this.params.add(v);
    const like = (v: string) => text(v.replaceAll('*', '%'));
    const simple: Record<string, string> = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=', cs: '@>', cd: '<@', ov: '&&', sl: '<<', sr: '>>', nxr: '&<', nxl: '&>', adj: '-|-' };
    const textOps: Record<string, string> = { like: 'like', ilike: 'ilike', match: '~', imatch: '~*' };
    let sql: string;
    if (f.quantifier) {
      const values = f.value as string[];
      const op = simple[f.op] ?? textOps[f.op];
      const conv = textOps[f.op] ? (f.op === 'like' || f.op === 'ilike' ? like : text) : typed;
      sql = values.length ? `${expr} ${op} ${f.quantifier}(array[${values.map(conv).join(', ')}])` : f.quantifier === 'all' ? 'true' : 'false';
    } else if (f.op in simple) {
      sql = `${expr} ${simple[f.op]} ${typed(f.value as string)}`;
    } else if (f.op === 'like' || f.op === 'ilike') {
      sql = `${expr} ${f.op} ${like(f.value as string)}`;
    } else if (f.op in textOps) {
      sql = `${expr} ${textOps[f.op]} ${text(f.value as string)}`;
    } else if (f.op === 'is') {
      sql = `${expr} is ${f.value === 'not_null' ? 'not null' : f.value}`;
    } else if (f.op === 'isdistinct') {
      sql = `${expr} is distinct from ${typed(f.value as string)}`;
    } else if (f.op === 'in') {
      const values = f.value as string[];
      sql = values.length ? `${expr} in (${values.map(typed).join(', ')})` : 'false';
    } else {
      const fn = { fts: 'to_tsquery', plfts: 'plainto_tsquery', phfts: 'phraseto_tsquery', wfts: 'websearch_to_tsquery' }[f.op];
      if (!fn) throw parseError('filter', f.op, 'unknown operator');
      const config = f.config ? `${text(f.config)}::regconfig, ` : '';
      const vector = type === 'tsvector' ? expr : `to_tsvector(${config}${expr})`;
      sql = `${vector} @@ ${fn}(${config}${text(f.value as string)})`;
    }
    return f.negate ? `not (${sql})` : sql;
  }

  private orderList(node: Node): string[] {
    return node.order.map((t) => {
      let expr: string;
      if (t.relation) {
        const embed = node.embeds.find((e) => e.key === t.relation || e.name === t.relation);
        if (!embed || embed.rel.cardinality === 'o2m' || embed.rel.cardinality === 'm2m') {
          throw pgrstError(400, 'PGRST118', `A related order on '${t.relation}' is not possible`, `'${node.source.label}' and '${t.relation}' do not form a many-to-one or one-to-one relationship, or '${t.relation}' is not embedded`);
        }
        const { expr: col } = this.fieldExpr(embed.node, t.field);
        expr = `(select ${col} from ${embed.node.source.sql} as ${quoteIdent(embed.node.alias)} where ${this.joinCondition(node, embed)} limit 1)`;
      } else {
        expr = this.fieldExpr(node, t.field).expr;
      }
      return `${expr} ${t.desc ? 'desc' : 'asc'}${t.nulls ? ` nulls ${t.nulls}` : ''}`;
    });
  }
}

/**
 * A computed relationship as a Relationship: to-many when the function returns a set, unless it
 * declares `ROWS 1` (PostgREST's single_row).
 */
function computedRelationship(from: string, fn: CatalogFunction): Relationship {
  return {
    cardinality: fn.returnsSet && fn.rows !== 1 ? 'o2m' : 'm2o',
    fk: { name: fn.name, table: from, columns: [], refTable: fn.returnTable!, refColumns: [] },
    from,
    to: fn.returnTable!,
    join: [],
  };
}

const isToMany = (e: Embed) => e.rel.cardinality === 'o2m' || e.rel.cardinality === 'm2m';

/** The key of a selected column: its alias, else the last JSON path key, else its name. */
function fieldKey(item: Extract<SelectItem, { kind: 'field' }>): string {
  return item.alias ?? (item.field.json.length ? item.field.json[item.field.json.length - 1].key : item.field.name);
}

export function columnTypes(columns: { name: string; type: PgType }[]): Map<string, PgType> {
  return new Map(columns.map((c) => [c.name, c.type]));
}
