// Reads what the REST endpoint and the type generator need to know about the `public` schema from
// pg_catalog, in one query that returns JSON (so PGlite and node-postgres hand back the same thing).
import type { Sql } from '../db/engine.ts';

export interface PgType {
  /** format_type(): a safe, properly quoted SQL type name, e.g. `text[]`, `timestamp with time zone`. */
  sql: string;
  /** pg_type.typname of the type (of the base type for a domain), e.g. `int4`, `_text`. */
  name: string;
  /** pg_type.typtype of that type: b base, e enum, c composite, p pseudo, r range. */
  kind: string;
  /** For arrays: the element type's name and kind. */
  elem: string | null;
  elemKind: string | null;
  /** Schema of the (element) type, to tell public enums and composites from built-ins. */
  schema: string;
}

export interface CatalogColumn {
  name: string;
  type: PgType;
  nullable: boolean;
  hasDefault: boolean;
  /** '' | 'a' (always) | 'd' (by default) */
  identity: string;
  /** '' | 's' (stored generated column) */
  generated: string;
  updatable: boolean;
}

export interface CatalogTable {
  name: string;
  /** pg_class.relkind: r table, p partitioned, v view, m materialized view, f foreign table */
  kind: string;
  columns: CatalogColumn[];
  pk: string[];
  /** Column sets with a unique constraint or a plain unique index. */
  uniques: string[][];
  insertable: boolean;
  updatable: boolean;
  /**
   * Views: where their columns come from, as [view column, table or view, its column] from the
   * resorigtbl/resorigcol of the view query's target entries (as PostgREST reads them); in the
   * order found, so a column's last entry is the outer query's.
   */
  origins?: [string, string, string][];
}

export interface CatalogForeignKey {
  name: string;
  table: string;
  columns: string[];
  refTable: string;
  refColumns: string[];
}

export interface CatalogArg {
  name: string;
  type: PgType;
  /** i in, o out, b inout, v variadic, t table column */
  mode: string;
  hasDefault: boolean;
}

export interface CatalogFunction {
  name: string;
  oid: number;
  args: CatalogArg[];
  returnType: PgType;
  returnsSet: boolean;
  /** Columns of the result when it is a row type (table row, composite type, OUT params, RETURNS TABLE). */
  returnColumns: { name: string; type: PgType }[] | null;
  /** The public table whose row type the function returns, if any (for embedding from rpc). */
  returnTable: string | null;
  volatility: string;
}

export interface Catalog {
  tables: CatalogTable[];
  foreignKeys: CatalogForeignKey[];
  functions: CatalogFunction[];
  enums: { name: string; values: string[] }[];
  compositeTypes: { name: string; attributes: { name: string; type: PgType }[] }[];
}

// A PgType as JSON from a type oid `$oid` and typmod `$mod`.
const typeJson = (oid: string, mod = 'null') => `(select json_build_object(
    'sql', format_type(${oid}, ${mod}),
    'name', bt.typname, 'kind', bt.typtype,
    'elem', et.typname, 'elemKind', et.typtype,
    'schema', coalesce(etn.nspname, btn.nspname))
  from pg_type t0
  join pg_type bt on bt.oid = case when t0.typtype = 'd' then t0.typbasetype else t0.oid end
  join pg_namespace btn on btn.oid = bt.typnamespace
  left join pg_type et on et.oid = bt.typelem and bt.typcategory = 'A'
  left join pg_namespace etn on etn.oid = et.typnamespace
  where t0.oid = ${oid})`;

const CATALOG_SQL = `
with rels as (
  select c.oid, c.relname, c.relkind from pg_class c
  where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'f')
)
select json_build_object(
  'tables', (select coalesce(json_agg(json_build_object(
      'name', r.relname,
      'kind', r.relkind,
      'insertable', r.relkind in ('r', 'p') or (pg_relation_is_updatable(r.oid, true) & 8) = 8,
      'updatable', r.relkind in ('r', 'p') or (pg_relation_is_updatable(r.oid, true) & 4) = 4,
      'columns', (select coalesce(json_agg(json_build_object(
          'name', a.attname,
          'type', ${typeJson('a.atttypid', 'a.atttypmod')},
          'nullable', not a.attnotnull,
          'hasDefault', a.atthasdef,
          'identity', a.attidentity::text,
          'generated', a.attgenerated::text,
          'updatable', r.relkind in ('r', 'p') or pg_column_is_updatable(r.oid, a.attnum, true)
        ) order by a.attnum), '[]'::json)
        from pg_attribute a where a.attrelid = r.oid and a.attnum > 0 and not a.attisdropped),
      'pk', (select coalesce(json_agg(a.attname order by k.ord), '[]'::json)
        from pg_constraint co
        cross join lateral unnest(co.conkey) with ordinality k(attnum, ord)
        join pg_attribute a on a.attrelid = co.conrelid and a.attnum = k.attnum
        where co.conrelid = r.oid and co.contype = 'p'),
      'uniques', (select coalesce(json_agg(u.cols), '[]'::json) from (
          select (select json_agg(a.attname order by k.ord)
                  from unnest(i.indkey::int2[]) with ordinality k(attnum, ord)
                  join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum) as cols
          from pg_index i
          where i.indrelid = r.oid and i.indisunique and i.indpred is null and 0 <> all (i.indkey::int2[])
        ) u),
      'origins', (select json_agg(json_build_array(m.v[1], oc.relname, oa.attname) order by m.n)
        from pg_rewrite rw
        cross join lateral regexp_matches(rw.ev_action::text, ':resname (\\S+) :ressortgroupref \\d+ :resorigtbl (\\d+) :resorigcol (\\d+)', 'g') with ordinality as m(v, n)
        join pg_class oc on oc.oid = m.v[2]::oid and oc.relnamespace = 'public'::regnamespace
        join pg_attribute oa on oa.attrelid = oc.oid and oa.attnum = m.v[3]::int2
        where r.relkind = 'v' and rw.ev_class = r.oid and rw.rulename = '_RETURN')
    ) order by r.relname), '[]'::json) from rels r),
  'foreignKeys', (select coalesce(json_agg(json_build_object(
      'name', co.conname,
      'table', c.relname,
      'refTable', fc.relname,
      'columns', (select json_agg(a.attname order by k.ord) from unnest(co.conkey) with ordinality k(attnum, ord)
                  join pg_attribute a on a.attrelid = co.conrelid and a.attnum = k.attnum),
      'refColumns', (select json_agg(a.attname order by k.ord) from unnest(co.confkey) with ordinality k(attnum, ord)
                  join pg_attribute a on a.attrelid = co.confrelid and a.attnum = k.attnum)
    ) order by c.relname, co.conname), '[]'::json)
    from pg_constraint co
    join pg_class c on c.oid = co.conrelid and c.relnamespace = 'public'::regnamespace
    join pg_class fc on fc.oid = co.confrelid and fc.relnamespace = 'public'::regnamespace
    where co.contype = 'f'),
  'functions', (select coalesce(json_agg(json_build_object(
      'name', p.proname,
      'oid', p.oid::int8,
      'returnsSet', p.proretset,
      'volatility', p.provolatile::text,
      'returnType', ${typeJson('p.prorettype')},
      'returnTable', (select tc.relname from pg_type tt join pg_class tc on tc.oid = tt.typrelid
                      where tt.oid = p.prorettype and tc.relnamespace = 'public'::regnamespace and tc.relkind in ('r', 'p', 'v', 'm', 'f')),
      'compositeColumns', (select json_agg(json_build_object('name', a.attname, 'type', ${typeJson('a.atttypid', 'a.atttypmod')}) order by a.attnum)
                      from pg_type tt join pg_attribute a on a.attrelid = tt.typrelid
                      where tt.oid = p.prorettype and tt.typrelid <> 0 and a.attnum > 0 and not a.attisdropped),
      'nDefaults', p.pronargdefaults,
      'nIn', p.pronargs,
      'args', (select coalesce(json_agg(json_build_object(
            'name', coalesce(p.proargnames[u.n], ''),
            'mode', coalesce(p.proargmodes[u.n]::text, 'i'),
            'type', ${typeJson('u.t')}
          ) order by u.n), '[]'::json)
        from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality u(t, n))
    ) order by p.proname, p.oid), '[]'::json)
    from pg_proc p
    where p.pronamespace = 'public'::regnamespace and p.prokind = 'f'
      and p.prorettype <> 'trigger'::regtype and p.prorettype <> 'event_trigger'::regtype
      and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')),
  'enums', (select coalesce(json_agg(json_build_object('name', t.typname,
        'values', (select json_agg(e.enumlabel order by e.enumsortorder) from pg_enum e where e.enumtypid = t.oid))
      order by t.typname), '[]'::json)
    from pg_type t where t.typnamespace = 'public'::regnamespace and t.typtype = 'e'),
  'compositeTypes', (select coalesce(json_agg(json_build_object('name', t.typname,
        'attributes', (select coalesce(json_agg(json_build_object('name', a.attname, 'type', ${typeJson('a.atttypid', 'a.atttypmod')}) order by a.attnum), '[]'::json)
          from pg_attribute a where a.attrelid = t.typrelid and a.attnum > 0 and not a.attisdropped))
      order by t.typname), '[]'::json)
    from pg_type t join pg_class c on c.oid = t.typrelid
    where t.typnamespace = 'public'::regnamespace and t.typtype = 'c' and c.relkind = 'c')
)::text as catalog`;

interface RawFunction extends Omit<CatalogFunction, 'args' | 'returnColumns'> {
  args: { name: string; mode: string; type: PgType }[];
  compositeColumns: { name: string; type: PgType }[] | null;
  nDefaults: number;
  nIn: number;
}

export async function readCatalog(sql: Sql): Promise<Catalog> {
  const { rows } = await sql.query<{ catalog: string }>(CATALOG_SQL);
  const raw = JSON.parse(rows[0].catalog) as Omit<Catalog, 'functions'> & { functions: RawFunction[] };
  const functions = raw.functions.map((f): CatalogFunction => {
    // Defaults belong to the last nDefaults input arguments.
    let inputIndex = 0;
    const args = f.args.map((a) => {
      const isInput = a.mode === 'i' || a.mode === 'b' || a.mode === 'v';
      const hasDefault = isInput && inputIndex++ >= f.nIn - f.nDefaults;
      return { ...a, hasDefault };
    });
    const outs = args.filter((a) => a.mode === 'o' || a.mode === 'b' || a.mode === 't');
    let returnColumns: CatalogFunction['returnColumns'] = null;
    if (outs.length > 1 || (outs.length === 1 && f.args.some((a) => a.mode === 't'))) {
      returnColumns = outs.map((a) => ({ name: a.name, type: a.type }));
    } else if (f.compositeColumns) {
      returnColumns = f.compositeColumns;
    }
    return {
      name: f.name,
      oid: Number(f.oid),
      args,
      returnType: f.returnType,
      returnsSet: f.returnsSet,
      returnColumns,
      returnTable: f.returnTable,
      volatility: f.volatility,
    };
  });
  return { ...raw, functions };
}
