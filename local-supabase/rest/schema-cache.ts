// The in-memory schema cache: tables, columns, relationships and functions of `public`, as PostgREST
// keeps them. Every name a request uses is looked up here before it reaches SQL. The REST handler
// reloads it when a request misses a name (a migration or a test created something since).
import type { Engine } from '../db/engine.ts';
import { readCatalog, type Catalog, type CatalogFunction, type CatalogTable, type CatalogForeignKey, type CatalogColumn } from './catalog.ts';

export interface Table extends CatalogTable {
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
  private loading: Promise<void> | null = null;
  private loadedAt = 0;
  private loads = 0;

  constructor(private readonly engine: Engine) {}

  /** Loads the cache; concurrent callers share one load. */
  reload(): Promise<void> {
    this.loading ??= (async () => {
      try {
        const catalog = await readCatalog(this.engine);
        this.catalog = catalog;
        this.tables = new Map(catalog.tables.map((t) => [t.name, { ...t, columnMap: new Map(t.columns.map((c) => [c.name, c])) }]));
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

  functionsNamed(name: string): CatalogFunction[] | undefined {
    return this.functions.get(name);
  }

  /** All relationships starting at `from` whose target is `target` (a table name, or an FK column of `from`). */
  relationships(from: string, target: string): Relationship[] {
    const out: Relationship[] = [];
    const fromTable = this.tables.get(from);
    if (!fromTable) return out;
    const isUnique = (t: Table | undefined, cols: string[]) =>
      !!t && t.uniques.some((u) => u.length === cols.length && u.every((c) => cols.includes(c)));
    for (const fk of this.catalog.foreignKeys) {
      // many-to-one (or one-to-one when the FK columns are unique): `from` holds the FK.
      if (fk.table === from && (fk.refTable === target || (fk.columns.length === 1 && fk.columns[0] === target))) {
        out.push({
          cardinality: isUnique(fromTable, fk.columns) ? 'o2o' : 'm2o',
          fk,
          from,
          to: fk.refTable,
          join: fk.columns.map((c, i) => [c, fk.refColumns[i]]),
        });
      }
      // one-to-many (or one-to-one): the target holds an FK to `from`.
      if (fk.refTable === from && fk.table === target) {
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
      for (const fromFk of this.catalog.foreignKeys) {
        if (fromFk.refTable !== from) continue;
        const junction = this.tables.get(fromFk.table);
        if (!junction || junction.name === from || junction.name === target) continue;
        for (const toFk of this.catalog.foreignKeys) {
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

/** Narrows candidate relationships with a `!hint`: a constraint name, an FK column, or a junction table. */
export function applyHint(rels: Relationship[], hint: string | undefined): Relationship[] {
  if (!hint) return rels;
  const matched = rels.filter(
    (r) => r.fk.name === hint || r.junction?.table === hint || (r.cardinality !== 'm2m' && r.fk.columns.includes(hint)),
  );
  // A self-referencing FK matches both ways; a hint naming it means the many-to-one side (the parent).
  if (matched.length > 1 && matched.every((r) => r.fk === matched[0].fk)) {
    const own = matched.filter((r) => r.fk.table === r.from && r.cardinality !== 'o2m');
    if (own.length === 1) return own;
  }
  return matched;
}
