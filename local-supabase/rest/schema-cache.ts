// The in-memory schema cache: tables, columns, relationships and functions of one exposed schema, as
// PostgREST keeps them. Every name a request uses is looked up here before it reaches SQL. The REST handler
// reloads it when a request misses a name (a migration or a test created something since).
import type { Engine } from '../db/engine.ts';
import { readCatalog, type Catalog, type CatalogFunction, type CatalogTable, type CatalogForeignKey, type CatalogColumn } from './catalog.ts';

export interface Table extends CatalogTable {
  schema: string;
  columnMap: Map<string, CatalogColumn>;
}

export type Cardinality = 'm2o' | 'o2m' | 'o2o' | 'm2m';

export interface Relationship {
  cardinality: Cardinality;
  /** The constraint this relationship comes from (for m2m: the one towards the target). */
  fk: CatalogForeignKey;
  from: string;
  to: string;
  /** Pairs [from column, to column] joining the two tables (not used for m2m). */
  join: [string, string][];
  junction?: { table: string; fromFk: CatalogForeignKey; toFk: CatalogForeignKey };
}

export class SchemaCache {
  private catalog: Catalog = { tables: [], foreignKeys: [], functions: [], enums: [], compositeTypes: [] };
  private tables = new Map<string, Table>();
  private functions = new Map<string, CatalogFunction[]>();
  /** Foreign keys of tables, plus their copies on views that show the key's columns. */
  private fks: CatalogForeignKey[] = [];
  private loading: Promise<void> | null = null;
  private loadedAt = 0;
  private loads = 0;

  constructor(
    private readonly engine: Engine,
    readonly schema = 'public',
  ) {}

  /** Loads the cache; concurrent callers share one load. */
  reload(): Promise<void> {
    this.loading ??= (async () => {
      try {
        const catalog = await readCatalog(this.engine, this.schema);
        this.catalog = catalog;
        this.fks = [...catalog.foreignKeys, ...viewForeignKeys(catalog.tables, catalog.foreignKeys)];
        this.tables = new Map(catalog.tables.map((t) => [t.name, { ...t, schema: this.schema, columnMap: new Map(t.columns.map((c) => [c.name, c])) }]));
        this.functions = new Map();
        for (const f of catalog.functions) {
          const list = this.functions.get(f.name) ?? [];
          list.push(f);
          this.functions.set(f.name, list);
        }
        this.loadedAt = Date.now();
        this.loads++;
      } finally {
        this.loading = null;
      }
    })();
    return this.loading;
  }

  async ensureLoaded(): Promise<void> {
    if (!this.loadedAt) await this.reload();
  }

  /** Runs a lookup on the loaded cache (a miss is retried by the handler after a reload). */
  async lookup<T>(fn: () => T | undefined): Promise<T | undefined> {
    await this.ensureLoaded();
    return fn();
  }

  /** Counts loads, so a request can tell whether the cache was refreshed since it started. */
  get generation(): number {
    return this.loads;
  }

  table(name: string): Table | undefined {
    return this.tables.get(name);
  }

  tableNames(): string[] {
    return [...this.tables.keys()];
  }

  functionNames(): string[] {
    return [...this.functions.keys()];
  }

  functionsNamed(name: string): CatalogFunction[] | undefined {
    return this.functions.get(name);
  }

  /**
   * A function taking a row of `table` as its only argument: a computed field (scalar result) or,
   * returning rows of a table, a computed relationship, as PostgREST treats them.
   */
  rowFunction(table: string, name: string, kind: 'field' | 'relationship'): CatalogFunction | undefined {
    return this.functions.get(name)?.find((f) => {
      const inputs = f.args.filter((a) => a.mode === 'i' || a.mode === 'b' || a.mode === 'v');
      if (inputs.length !== 1 || inputs.some((a) => a.hasDefault)) return false;
      const t = inputs[0].type;
      if (t.kind !== 'c' || t.name !== table || t.schema !== this.schema || f.returnType.name === 'void') return false;
      return kind === 'relationship' ? f.returnTable !== null : f.returnTable === null && !f.returnsSet && !f.returnColumns;
    });
  }

  /** Every table name that takes part in a relationship (PostgREST's suggestions come from these). */
  relatedTables(): Set<string> {
    const out = new Set<string>();
    for (const fk of this.fks) {
      out.add(fk.table);
      out.add(fk.refTable);
    }
    return out;
  }

  /** The tables `from` can embed (for "Perhaps you meant" hints). */
  embeddableFrom(from: string): Set<string> {
    const out = new Set<string>();
    for (const fk of this.fks) {
      if (fk.table === from) out.add(fk.refTable);
      if (fk.refTable === from) {
        out.add(fk.table);
        for (const other of this.fks) if (other.table === fk.table && other !== fk) out.add(other.refTable);
      }
    }
    return out;
  }

  /** All relationships starting at `from` whose target is `target` (a table name, or an FK column of `from`). */
  relationships(from: string, target: string): Relationship[] {
    const out: Relationship[] = [];
    const fromTable = this.tables.get(from);
    if (!fromTable) return out;
    // A constraint or column name can only name a relationship whose other side is a table.
    const notView = (name: string) => this.tables.get(name)?.kind !== 'v';
    const isUnique = (t: Table | undefined, cols: string[]) =>
      !!t && t.uniques.some((u) => u.length === cols.length && u.every((c) => cols.includes(c)));
    for (const fk of this.fks) {
      // many-to-one (or one-to-one when the FK columns are unique): `from` holds the FK. The target
      // may also be named by the constraint or by its single FK column.
      if (fk.table === from && (fk.refTable === target || ((fk.name === target || (fk.columns.length === 1 && fk.columns[0] === target)) && notView(fk.refTable)))) {
        out.push({
          cardinality: isUnique(fromTable, fk.columns) ? 'o2o' : 'm2o',
          fk,
          from,
          to: fk.refTable,
          join: fk.columns.map((c, i) => [c, fk.refColumns[i]]),
        });
      }
      // one-to-many (or one-to-one): the target holds an FK to `from`.
      if (fk.refTable === from && (fk.table === target || (fk.name === target && fk.table !== from && notView(fk.table)))) {
        out.push({
          cardinality: isUnique(this.tables.get(fk.table), fk.columns) ? 'o2o' : 'o2m',
          fk,
          from,
          to: fk.table,
          join: fk.refColumns.map((c, i) => [c, fk.columns[i]]),
        });
      }
    }
    // many-to-many through a junction table whose key holds both foreign keys' columns.
    if (this.tables.has(target)) {
      for (const fromFk of this.fks) {
        if (fromFk.refTable !== from) continue;
        const junction = this.tables.get(fromFk.table);
        if (!junction || junction.name === from || junction.name === target) continue;
        for (const toFk of this.fks) {
          if (toFk === fromFk || toFk.table !== junction.name || toFk.refTable !== target) continue;
          const cols = [...fromFk.columns, ...toFk.columns];
          const keys = [junction.pk, ...junction.uniques];
          if (!keys.some((k) => k.length > 0 && cols.every((c) => k.includes(c)))) continue;
          out.push({ cardinality: 'm2m', fk: toFk, from, to: target, join: [], junction: { table: junction.name, fromFk, toFk } });
        }
      }
    }
    return out;
  }

  get raw(): Catalog {
    return this.catalog;
  }
}

/**
 * PostgREST gives a view the relationships of the table columns it shows: a foreign key whose
 * columns (or referenced columns) all appear in a view is repeated with the view in place of the
 * table, under the same constraint name. Views over views are followed down to their tables.
 */
function viewForeignKeys(tables: CatalogTable[], fks: CatalogForeignKey[]): CatalogForeignKey[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  // For each view: its column → [base table, base column], following views of views.
  const bases = new Map<string, Map<string, [string, string]>>();
  const resolve = (view: string, depth: number): Map<string, [string, string]> => {
    const known = bases.get(view);
    if (known) return known;
    const out = new Map<string, [string, string]>();
    const t = byName.get(view);
    const columns = new Set(t?.columns.map((c) => c.name));
    for (const [col, rel, relCol] of t?.origins ?? []) {
      if (!columns.has(col)) continue; // a target entry of an inner query
      const src = byName.get(rel);
      if (src?.kind === 'v' && depth < 8) {
        const inner = resolve(rel, depth + 1).get(relCol);
        if (inner) out.set(col, inner);
        else out.delete(col);
      } else {
        out.set(col, [rel, relCol]);
      }
    }
    bases.set(view, out);
    return out;
  };
  const views = tables.filter((t) => t.kind === 'v').map((t) => ({ name: t.name, map: resolve(t.name, 0) }));
  // The view columns showing `columns` of `table`, or null when one is missing.
  const shown = (map: Map<string, [string, string]>, table: string, columns: string[]): string[] | null => {
    const out: string[] = [];
    for (const c of columns) {
      const found = [...map].find(([, [t, tc]]) => t === table && tc === c);
      if (!found) return null;
      out.push(found[0]);
    }
    return out;
  };
  const out: CatalogForeignKey[] = [];
  for (const fk of fks) {
    const froms = [{ table: fk.table, columns: fk.columns }];
    const tos = [{ table: fk.refTable, columns: fk.refColumns }];
    for (const v of views) {
      const cols = shown(v.map, fk.table, fk.columns);
      if (cols) froms.push({ table: v.name, columns: cols });
      const refs = shown(v.map, fk.refTable, fk.refColumns);
      if (refs) tos.push({ table: v.name, columns: refs });
    }
    for (const f of froms) {
      for (const t of tos) {
        if (f.table === fk.table && t.table === fk.refTable) continue; // the table's own key
        out.push({ name: fk.name, table: f.table, columns: f.columns, refTable: t.table, refColumns: t.columns });
      }
    }
  }
  return out;
}

/**
 * Narrows the candidate relationships for `target` with a `!hint`, as PostgREST's findRel does. A
 * self-referencing foreign key gives two relationships: the table's own name means its children
 * (one-to-many, `collections(*)`, narrowed by a hint naming the children's column,
 * `collections!parent_id(*)`), the foreign key column means the parent (`parent_id(*)`).
 */
export function applyHint(rels: Relationship[], target: string, hint: string | undefined): Relationship[] {
  const single = (cols: string[], name: string | undefined) => cols.length === 1 && cols[0] === name;
  return rels.filter((r) => {
    const self = !r.junction && r.fk.table === r.fk.refTable && r.from === r.fk.table;
    if (self) {
      const childColumn = r.join.length === 1 ? r.join[0][1] : undefined;
      if (!hint) return (r.to === target && r.cardinality === 'o2m') || (r.cardinality === 'm2o' && single(r.fk.columns, target));
      return r.to === target && r.cardinality === 'o2m' && childColumn === hint;
    }
    if (!hint) return true;
    return r.junction?.table === hint || (r.cardinality !== 'm2m' && (r.fk.name === hint || single(r.fk.columns, hint) || single(r.fk.refColumns, hint)));
  });
}
