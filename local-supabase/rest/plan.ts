// Planning (PostgREST's Plan): a parsed request resolved against the schema cache into a plan value:
// the levels of the select tree, the relationship each embed follows, the computed fields each level
// uses. Rendering (render-*.ts) turns a plan into SQL without looking anything up.
import { HttpError } from '../http.ts';
import type { CatalogFunction, PgType } from './catalog.ts';
import { closest, pgrstError } from './errors.ts';
import type { Condition, OrderTerm, ParsedQuery } from './query-params.ts';
import { applyHint, type Relationship, type SchemaCache, type Table } from './schema-cache.ts';
import type { Field, SelectItem } from './select-parser.ts';

/** What a level reads from: a table or view, the CTE of a mutation or call, or a computed relationship. */
export type From =
  | { kind: 'table'; schema: string; name: string }
  | { kind: 'cte'; name: string }
  /** `schema.fn(<parent row>)`: a function of the parent level's row returning the related rows. */
  | { kind: 'rowFunction'; schema: string; name: string; parent: Node };

/** What a level of the query reads from. */
export interface Source {
  from: From;
  /** Name used in error messages. */
  label: string;
  /** The name PostgreSQL reports for this level in its own errors (PostgREST's alias `<table>_<depth>`). */
  sqlName?: string;
  columns: Map<string, PgType>;
  /** The public table this source is, for relationships (null: none can be embedded). */
  table: string | null;
}

export interface Embed {
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
  /** Computed fields this level names (functions of its row, used like columns), by name. */
  computedFields: Map<string, CatalogFunction>;
}

export interface ReadPlan {
  root: Node;
  /** The schema of the request (computed fields and relationships are called in it). */
  schema: string;
  /** How many `pgrst_<x><n>` aliases planning took: rendering numbers its own after them. */
  aliasesUsed: number;
}

export interface ReadOptions {
  /** The alias of the top level (a mutation's WHERE names the modified table's alias). */
  alias?: string;
  /** PostgREST's db-aggregates-enabled. */
  aggregatesEnabled?: boolean;
}

export function columnTypes(columns: { name: string; type: PgType }[]): Map<string, PgType> {
  return new Map(columns.map((c) => [c.name, c.type]));
}

/** A table as the source of the top level (`cte`: read from that CTE, which has the table's columns). */
export function tableSource(table: Table, cte?: string): Source {
  return {
    from: cte ? { kind: 'cte', name: cte } : { kind: 'table', schema: table.schema, name: table.name },
    label: table.name,
    columns: columnTypes(table.columns),
    table: table.name,
  };
}

/** Resolves the select tree, filters, order and pagination of `query` against the cache. */
export async function planRead(cache: SchemaCache, query: ParsedQuery, source: Source, items: SelectItem[], options: ReadOptions = {}): Promise<ReadPlan> {
  const planner = new ReadPlanner(cache, query, options.aggregatesEnabled ?? false);
  const root = await planner.plan(source, items, options.alias);
  return { root, schema: cache.schema, aliasesUsed: planner.aliasCount };
}

class ReadPlanner {
  aliasCount = 0;
  private readonly usedPaths = new Set<string>(['']);
  /** The query's per-path maps, copied: an embed's alias takes over what was addressed by its name. */
  private readonly q: Pick<ParsedQuery, 'conditions' | 'order' | 'limit' | 'offset'>;

  constructor(
    private readonly cache: SchemaCache,
    query: ParsedQuery,
    private readonly aggregatesEnabled: boolean,
  ) {
    this.q = { conditions: new Map(query.conditions), order: new Map(query.order), limit: new Map(query.limit), offset: new Map(query.offset) };
  }

  private nextAlias(): string {
    return `pgrst_t${this.aliasCount++}`;
  }

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
    resolveComputedFields(this.cache, node);
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
      computedFields: new Map(),
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
      const from: From = computed
        ? { kind: 'rowFunction', schema: this.cache.schema, name: computed.name, parent: node }
        : { kind: 'table', schema: this.cache.schema, name: target.name };
      const child = await this.planNode(
        {
          from,
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
    if (!found) throw noRelationship(this.cache, from, target, hint);
    if (found.length > 1) throw ambiguousRelationship(from, target, found);
    return found[0];
  }
}

/** PGRST200. PostgREST suggests a close name: for the target among what `from` relates to, else for `from`. */
function noRelationship(cache: SchemaCache, from: string, target: string, hint: string | undefined): HttpError {
  const related = cache.relatedTables();
  let suggestion: string | null = null;
  if (related.has(from)) {
    const s = closest(target, cache.embeddableFrom(from), 0.33);
    if (s) suggestion = `Perhaps you meant '${s}' instead of '${target}'.`;
  } else {
    const s = closest(from, related, 0.33);
    if (s) suggestion = `Perhaps you meant '${s}' instead of '${from}'.`;
  }
  return pgrstError(
    400,
    'PGRST200',
    `Could not find a relationship between '${from}' and '${target}' in the schema cache`,
    `Searched for a foreign key relationship between '${from}' and '${target}'${hint ? ` using the hint '${hint}'` : ''} in the schema '${cache.schema}', but no matches were found.`,
    suggestion,
  );
}

/** PGRST201: more than one relationship fits; the details list them and the hint the `!hint`s that choose. */
function ambiguousRelationship(from: string, target: string, found: Relationship[]): HttpError {
  return new HttpError(300, {
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

/**
 * Records, on each level, the computed fields among the names it uses that are not columns. A name
 * that is neither stays unresolved: rendering reports it where PostgreSQL would (42703).
 */
function resolveComputedFields(cache: SchemaCache, node: Node): void {
  const use = (level: Node, field: Field) => {
    if (level.source.columns.has(field.name) || level.computedFields.has(field.name) || !level.source.table) return;
    const fn = cache.rowFunction(level.source.table, field.name, 'field');
    if (fn) level.computedFields.set(field.name, fn);
  };
  const useCondition = (c: Condition) => {
    if (c.kind === 'filter') use(node, c.filter.field);
    else if (c.kind === 'logic') c.children.forEach(useCondition);
  };
  for (const item of node.items) {
    if (item.kind === 'field') use(node, item.field);
    else if (item.kind === 'aggregate' && item.field) use(node, item.field);
  }
  node.conditions.forEach(useCondition);
  for (const t of node.order) {
    const embed = t.relation ? node.embeds.find((e) => e.key === t.relation || e.name === t.relation) : undefined;
    if (!t.relation) use(node, t.field);
    else if (embed) use(embed.node, t.field);
  }
  for (const embed of node.embeds) resolveComputedFields(cache, embed.node);
}
