// Issue 46, item 1: school_email_settings had private.touch_timestamps() as its update trigger but no
// created_at, so every update after the first save failed with 'record "new" has no field "created_at"'.
// Read from the live catalog: for every row-level trigger on a table, the columns its PL/pgSQL function
// assigns on NEW (`new.updated_at := now()`) or reads from OLD (`new.created_at := old.created_at`) are
// columns of that table. A new table given a shared trigger it does not fit fails here, not at a
// school's second save.
import { describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';

const backend = useBackend();

const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) => (await backend.server.ctx.engine.query<T>(text, params)).rows;

/** The body without comments and string literals, lower case: what the function does to NEW and OLD. */
function code(body: string): string {
  return body
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/'(?:[^']|'')*'/g, "''")
    .toLowerCase();
}

/** The columns a trigger function writes on NEW (an assignment statement) and reads from OLD. */
function columnsTouched(body: string): string[] {
  const text = code(body);
  const written = [...text.matchAll(/(?:^|;|\bbegin|\bthen|\belse|\bloop)\s*new\.([a-z_][a-z0-9_]*)\s*:?=(?!=)/g)].map((m) => m[1]!);
  const read = [...text.matchAll(/\bold\.([a-z_][a-z0-9_]*)/g)].map((m) => m[1]!);
  return [...new Set([...written, ...read])].sort();
}

interface TriggerRow {
  table_name: string;
  trigger_name: string;
  function_name: string;
  body: string;
  columns: string[];
}

/** Every row-level trigger with a PL/pgSQL function, on tables of the given schemas, with the table's columns. */
const triggers = (schemas: string[]) =>
  sql<TriggerRow>(
    `select format('%I.%I', n.nspname, c.relname) as table_name, t.tgname as trigger_name,
            format('%I.%I', pn.nspname, p.proname) as function_name, p.prosrc as body,
            array(select a.attname::text from pg_attribute a
                   where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped order by a.attnum) as columns
       from pg_trigger t
       join pg_class c on c.oid = t.tgrelid
       join pg_namespace n on n.oid = c.relnamespace
       join pg_proc p on p.oid = t.tgfoid
       join pg_namespace pn on pn.oid = p.pronamespace
       join pg_language l on l.oid = p.prolang
      where not t.tgisinternal and (t.tgtype & 1) = 1 and l.lanname = 'plpgsql' and n.nspname = any ($1)
      order by 1, 2`,
    [schemas],
  );

const problems = (rows: TriggerRow[]) =>
  rows.flatMap((t) =>
    columnsTouched(t.body)
      .filter((col) => !t.columns.includes(col))
      .map((col) => `${t.table_name}: trigger ${t.trigger_name} (${t.function_name}) writes or reads "${col}", which the table does not have`),
  );

describe('triggers and the columns they touch', () => {
  it('every table with a touch_timestamps-style trigger has the columns the trigger writes', async () => {
    const rows = await triggers(['public', 'private', 'storage']);
    // The catalog really was read: the timestamps trigger is on many tables, school_email_settings among them.
    const touched = rows.filter((t) => t.function_name === 'private.touch_timestamps').map((t) => t.table_name);
    expect(touched.length).toBeGreaterThan(10);
    expect(touched).toContain('public.school_email_settings');
    expect(columnsTouched(rows.find((t) => t.function_name === 'private.touch_timestamps')!.body)).toEqual(['created_at', 'updated_at']);
    expect(problems(rows)).toEqual([]);
  });

  it('the rule itself: a table without created_at given touch_timestamps is reported; one with both columns is not', async () => {
    await sql('create schema trigger_probe');
    try {
      await sql('create table trigger_probe.no_created (id int primary key, updated_at timestamptz not null default now())');
      await sql('create table trigger_probe.both (id int primary key, created_at timestamptz not null default now(), updated_at timestamptz not null default now())');
      for (const table of ['no_created', 'both']) {
        await sql(`create trigger ${table}_touch before update on trigger_probe.${table} for each row execute function private.touch_timestamps()`);
      }
      expect(problems(await triggers(['trigger_probe']))).toEqual([
        'trigger_probe.no_created: trigger no_created_touch (private.touch_timestamps) writes or reads "created_at", which the table does not have',
      ]);
    } finally {
      await sql('drop schema trigger_probe cascade');
    }
  });

  it('reads assignments and OLD, not comparisons, comments or strings', () => {
    expect(columnsTouched("begin\n  new.updated_at := now();\n  if new.status = 'x' then new.done_at = now(); end if;\n  -- new.ghost := 1;\n  raise notice 'new.text := 1';\n  return new;\nend")).toEqual(['done_at', 'updated_at']);
    expect(columnsTouched('begin if new.a is distinct from old.b then new.c := old.c; end if; return new; end')).toEqual(['b', 'c']);
  });
});
