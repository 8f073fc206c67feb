// A schema cache over a fixed catalog (no database), for the unit tests of planning and rendering.
// Names are hostile on purpose: a quote and a statement in a column, a space and a quote in a table.
import type { Engine } from '../db/engine.ts';
import type { PgType } from './catalog.ts';
import { SchemaCache } from './schema-cache.ts';

const type = (sql: string, name = sql, kind = 'b'): PgType => ({ sql, name, kind, elem: null, elemKind: null, schema: 'pg_catalog' });
const int4 = type('integer', 'int4');
const text = type('text');
const jsonb = type('jsonb');
const rowOf = (table: string): PgType => ({ sql: `"public"."${table}"`, name: table, kind: 'c', elem: null, elemKind: null, schema: 'public' });

const column = (name: string, t: PgType, dflt: string | null = null) => ({
  name,
  type: t,
  nullable: true,
  hasDefault: dflt !== null,
  default: dflt,
  identity: '',
  generated: '',
  updatable: true,
});

const table = (name: string, columns: ReturnType<typeof column>[], pk: string[]) => ({ name, kind: 'r', columns, pk, uniques: [], insertable: true, updatable: true });

/** The hostile column of `schools`. */
export const HOSTILE_COLUMN = 'na"me; drop table x; --';
/** The hostile table. */
export const HOSTILE_TABLE = 'odd "table"';

const courseColumns = [column('id', int4, 'nextval(\'courses_id_seq\'::regclass)'), column('school_id', int4), column('title', text), column('meta', jsonb)];

const CATALOG = {
  tables: [
    table('schools', [column('id', int4), column('name', text), column(HOSTILE_COLUMN, text)], ['id']),
    table('courses', courseColumns, ['id']),
    table('tags', [column('id', int4), column('label', text)], ['id']),
    table('course_tags', [column('course_id', int4), column('tag_id', int4)], ['course_id', 'tag_id']),
    table(HOSTILE_TABLE, [column('id', int4)], ['id']),
  ],
  foreignKeys: [
    { name: 'courses_school_id_fkey', table: 'courses', columns: ['school_id'], refTable: 'schools', refColumns: ['id'] },
    { name: 'course_tags_course_id_fkey', table: 'course_tags', columns: ['course_id'], refTable: 'courses', refColumns: ['id'] },
    { name: 'course_tags_tag_id_fkey', table: 'course_tags', columns: ['tag_id'], refTable: 'tags', refColumns: ['id'] },
  ],
  functions: [
    // add(a integer, b integer default 0) returns integer: a scalar.
    { name: 'add', oid: 1, args: [{ name: 'a', mode: 'i', type: int4 }, { name: 'b', mode: 'i', type: int4 }], returnType: int4, returnsSet: false, rows: 0, compositeColumns: null, returnTable: null, volatility: 'i', nDefaults: 1, nIn: 2 },
    // courses_of(school_id integer) returns setof courses: rows.
    { name: 'courses_of', oid: 2, args: [{ name: 'school_id', mode: 'i', type: int4 }], returnType: rowOf('courses'), returnsSet: true, rows: 1000, compositeColumns: courseColumns.map((c) => ({ name: c.name, type: c.type })), returnTable: 'courses', volatility: 's', nDefaults: 0, nIn: 1 },
    // label(courses) returns text: a computed field.
    { name: 'label', oid: 3, args: [{ name: '', mode: 'i', type: rowOf('courses') }], returnType: text, returnsSet: false, rows: 0, compositeColumns: null, returnTable: null, volatility: 's', nDefaults: 0, nIn: 1 },
  ],
  enums: [],
  compositeTypes: [],
};

const unused = () => Promise.reject(new Error('the fixture engine only answers the catalog query'));

/** An engine that answers readCatalog's one query with CATALOG, and nothing else. */
const catalogOnly: Engine = {
  kind: 'postgres',
  query: async <T,>() => ({ rows: [{ catalog: JSON.stringify(CATALOG) }] as T[], rowCount: 1 }),
  exec: unused,
  transaction: unused,
  runStatement: unused,
  close: async () => {},
};

export async function fixtureCache(): Promise<SchemaCache> {
  const cache = new SchemaCache(catalogOnly, 'public');
  await cache.reload();
  return cache;
}
