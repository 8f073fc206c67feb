// SQL rendering, pinned: each shape of statement (filters, embedding, order and range, counts,
// upserts, rpc calls, returning) as text and parameters, from requests parsed and planned over a
// fixed catalog. Hostile names must come out quoted, hostile values only as parameters.
import type { IncomingMessage } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCallQuery, parseCallRequest, parseMutationRequest, parseReadRequest, type MutationKind } from './api-request.ts';
import { planRead, tableSource, type ReadPlan } from './plan.ts';
import { planCall, resolveCallRequest } from './plan-call.ts';
import { planMutation } from './plan-mutation.ts';
import { callStatement, mutationStatement, readStatements } from './render.ts';
import { fixtureCache, HOSTILE_COLUMN, HOSTILE_TABLE } from './render-fixture.ts';
import type { SchemaCache } from './schema-cache.ts';
import { parseSelect } from './select-parser.ts';

let cache: SchemaCache;
beforeAll(async () => {
  cache = await fixtureCache();
});

const request = (method: string, headers: Record<string, string>) => ({ method, headers }) as IncomingMessage;
const urlOf = (path: string, qs: string) => new URL(`http://localhost/rest/v1/${encodeURIComponent(path)}?${qs}`);

async function planGet(table: string, qs: string, headers: Record<string, string> = {}, method = 'GET') {
  const r = parseReadRequest(request(method, headers), urlOf(table, qs), false);
  const plan = await planRead(cache, r.query, tableSource(cache.table(table)!), parseSelect(r.query.select ?? '*'), { aggregatesEnabled: true });
  return { plan, r };
}

async function read(table: string, qs: string, headers: Record<string, string> = {}, method = 'GET') {
  const { plan, r } = await planGet(table, qs, headers, method);
  return readStatements(plan, r.accept, r.prefer, method === 'HEAD');
}

async function mutate(table: string, method: 'POST' | 'PATCH' | 'DELETE', qs: string, body: unknown, headers: Record<string, string> = {}) {
  const kind: MutationKind = method === 'POST' ? 'insert' : method === 'PATCH' ? 'update' : 'delete';
  const r = parseMutationRequest(request(method, headers), urlOf(table, qs), kind, body, false);
  return mutationStatement(await planMutation(cache, cache.table(table)!, r, false), r.accept);
}

async function rpc(name: string, method: 'GET' | 'POST', qs: string, body?: unknown, headers: Record<string, string> = {}) {
  const r = parseCallRequest(request(method, headers), urlOf(`rpc/${name}`, qs), body, false);
  const resolved = await resolveCallRequest(cache, name, r);
  const query = parseCallQuery(request(method, headers), r.searchParams, resolved.argumentNames);
  return callStatement(await planCall(cache, resolved, query, r, false), r.accept, r.prefer);
}

/** The JSON-array body around a level's select (the shape of every read). */
const arrayBody = (select: string) => `select count(*) as n, coalesce(json_agg("pgrst_t"), '[]')::text as body from (${select}) as "pgrst_t"`;
const readOf = (select: string, total = 'null') => `select pgrst_r.n, ${total} as total, pgrst_r.body from (${arrayBody(select)}) as pgrst_r`;
const withChange = (change: string, body = 'null') =>
  `with pgrst_ret as (${change}), pgrst_source as (select (r).* from pgrst_ret) select (select count(*) from pgrst_ret) as n, (select count(*) from pgrst_ret where ins) as inserted, null as total, ${body} as body`;

describe('filters', () => {
  it('binds every value as a text parameter cast to the column type, hostile ones included', async () => {
    const hostile = "x'); drop table schools; --";
    const { read: s } = await read('schools', `select=id,name&name=eq.${encodeURIComponent(hostile)}&id=not.in.(1,2)`);
    expect(s.sql).toBe(
      readOf(`select "pgrst_t0"."id" as "id", "pgrst_t0"."name" as "name" from "public"."schools" as "pgrst_t0" where "pgrst_t0"."name" = $1::text::text and not ("pgrst_t0"."id" in ($2::text::integer, $3::text::integer))`),
    );
    expect(s.params).toEqual([hostile, '1', '2']);
  });

  it('renders logic trees, like patterns, JSON paths and is', async () => {
    const { read: s } = await read('courses', 'select=id&or=(title.ilike.*sql*,id.in.(1,2))&meta->>level=eq.2&title=not.is.null');
    expect(s.sql).toBe(
      readOf(
        `select "pgrst_t0"."id" as "id" from "public"."courses" as "pgrst_t0" where ("pgrst_t0"."title" ilike $1::text or "pgrst_t0"."id" in ($2::text::integer, $3::text::integer)) and ("pgrst_t0"."meta"->>$4::text) = $5::text::text and not ("pgrst_t0"."title" is null)`,
      ),
    );
    expect(s.params).toEqual(['%sql%', '1', '2', 'level', '2']);
  });

  it('quotes a hostile table name', async () => {
    const { read: s } = await read(HOSTILE_TABLE, 'id=gt.1');
    expect(s.sql).toBe(readOf(`select "pgrst_t0".* from "public"."odd ""table""" as "pgrst_t0" where "pgrst_t0"."id" > $1::text::integer`));
    expect(s.params).toEqual(['1']);
  });
});

describe('embedding', () => {
  it('embeds many-to-many through the junction table, with the embed filtered', async () => {
    const { read: s } = await read('courses', 'select=id,tags(label)&tags.label=eq.a');
    const junction = `exists (select 1 from "public"."course_tags" as "pgrst_j2" where "pgrst_j2"."course_id" = "pgrst_t0"."id" and "pgrst_j2"."tag_id" = "pgrst_t1"."id")`;
    const tags = `coalesce((select json_agg("pgrst_e3") from (select "pgrst_t1"."label" as "label" from "public"."tags" as "pgrst_t1" where ${junction} and "pgrst_t1"."label" = $1::text::text) as "pgrst_e3"), '[]')`;
    expect(s.sql).toBe(readOf(`select "pgrst_t0"."id" as "id", ${tags} as "tags" from "public"."courses" as "pgrst_t0"`));
    expect(s.params).toEqual(['a']);
  });

  it('filters the parent by an !inner embed (its filter bound twice)', async () => {
    const { read: s } = await read('schools', 'select=name,courses!inner(id)&courses.title=like.A*');
    const courses = `coalesce((select json_agg("pgrst_e2") from (select "pgrst_t1"."id" as "id" from "public"."courses" as "pgrst_t1" where "pgrst_t1"."school_id" = "pgrst_t0"."id" and "pgrst_t1"."title" like $1::text) as "pgrst_e2"), '[]')`;
    const inner = `exists (select 1 from "public"."courses" as "pgrst_t1" where "pgrst_t1"."school_id" = "pgrst_t0"."id" and "pgrst_t1"."title" like $2::text)`;
    expect(s.sql).toBe(readOf(`select "pgrst_t0"."name" as "name", ${courses} as "courses" from "public"."schools" as "pgrst_t0" where ${inner}`));
    expect(s.params).toEqual(['A%', 'A%']);
  });
});

describe('order, range and counts', () => {
  it('orders by a to-one embed, pages with limit/offset and counts exactly', async () => {
    const { read: s } = await read('courses', 'select=title,schools(name)&order=schools(name).desc.nullslast,id&limit=10&offset=20', { prefer: 'count=exact' });
    const school = `(select row_to_json("pgrst_e2") from (select "pgrst_t1"."name" as "name" from "public"."schools" as "pgrst_t1" where "pgrst_t1"."id" = "pgrst_t0"."school_id" limit 1) as "pgrst_e2")`;
    const byName = `(select "pgrst_t1"."name" from "public"."schools" as "pgrst_t1" where "pgrst_t1"."id" = "pgrst_t0"."school_id" limit 1)`;
    expect(s.sql).toBe(
      readOf(
        `select "pgrst_t0"."title" as "title", ${school} as "schools" from "public"."courses" as "pgrst_t0" order by ${byName} desc nulls last, "pgrst_t0"."id" asc limit 10 offset 20`,
        `(select count(*) from "public"."courses" as "pgrst_t0")`,
      ),
    );
    expect(s.params).toEqual([]);
  });

  it('HEAD counts the rows of the Range; a computed field is a call on the row', async () => {
    const { read: s } = await read('courses', 'select=id,label', { range: '0-4' }, 'HEAD');
    expect(s.sql).toBe(`select count(*) as n, null as total, null as body from (select "pgrst_t0"."id" as "id", "public"."label"("pgrst_t0") as "label" from "public"."courses" as "pgrst_t0" limit 5) as pgrst_t`);
  });

  it('count=planned: the rows to estimate continue the read parameters (the EXPLAIN gets them all)', async () => {
    const s = await read('courses', 'select=id&title=eq.a', { prefer: 'count=planned' });
    expect(s.read.params).toEqual(['a']);
    expect(s.plannedRows).toEqual({ sql: `select 1 from "public"."courses" as "pgrst_t0" where "pgrst_t0"."title" = $2::text::text`, params: ['a', 'a'] });
  });

  it('groups by the other columns next to an aggregate', async () => {
    const { read: s } = await read('courses', 'select=school_id,id.count()');
    expect(s.sql).toBe(readOf(`select "pgrst_t0"."school_id" as "school_id", count("pgrst_t0"."id") as "count" from "public"."courses" as "pgrst_t0" group by "pgrst_t0"."school_id"`));
  });

  it('renders the same plan to the same statement every time (no state between renders)', async () => {
    const { plan, r } = await planGet('courses', 'select=id,tags(label)&tags.label=eq.a', { prefer: 'count=exact' });
    const copy: ReadPlan = structuredClone(plan);
    expect(readStatements(plan, r.accept, r.prefer, false)).toEqual(readStatements(plan, r.accept, r.prefer, false));
    expect(plan).toEqual(copy);
  });
});

describe('mutations', () => {
  it('upserts on the conflict target and returns the representation', async () => {
    const s = await mutate('courses', 'POST', 'on_conflict=id&select=id', [{ id: 1, title: 'a' }], { prefer: 'resolution=merge-duplicates,return=representation' });
    const insert = `insert into "public"."courses" as "pgrst_m" ("id", "title") select "id", "title" from json_populate_recordset(null::"public"."courses", $1::text::json) as _ on conflict ("id") do update set "id" = excluded."id", "title" = excluded."title" returning "pgrst_m" as r, ("pgrst_m".xmax = 0) as ins`;
    const body = `(select pgrst_b.body from (${arrayBody(`select "pgrst_t0"."id" as "id" from pgrst_source as "pgrst_t0"`)}) as pgrst_b)`;
    expect(s).toEqual({ sql: withChange(insert, body), params: ['[{"id":1,"title":"a"}]'] });
  });

  it('missing=default lays each row over the defaults of the columns given', async () => {
    const s = await mutate('courses', 'POST', 'columns=id,title', [{ title: 'a' }], { prefer: 'missing=default,resolution=ignore-duplicates' });
    const rows = `(select jsonb_agg(jsonb_build_object($1::text, nextval('courses_id_seq'::regclass)) || "pgrst_e") from jsonb_array_elements($2::text::jsonb) as "pgrst_e")`;
    const insert = `insert into "public"."courses" as "pgrst_m" ("id", "title") select "id", "title" from jsonb_populate_recordset(null::"public"."courses", ${rows}) as _ on conflict ("id") do nothing returning "pgrst_m" as r, ("pgrst_m".xmax = 0) as ins`;
    expect(s).toEqual({ sql: withChange(insert), params: ['id', '[{"title":"a"}]'] });
  });

  it('updates from one JSON parameter: filters first, hostile column names quoted', async () => {
    const s = await mutate('schools', 'PATCH', 'id=eq.1', { [HOSTILE_COLUMN]: "'; drop" });
    const col = `"na""me; drop table x; --"`;
    const update = `update "public"."schools" as "pgrst_m" set ${col} = "pgrst_body".${col} from (select * from json_populate_record(null::"public"."schools", $2::text::json)) as "pgrst_body" where "pgrst_m"."id" = $1::text::integer returning "pgrst_m" as r, false as ins`;
    expect(s).toEqual({ sql: withChange(update), params: ['1', JSON.stringify({ [HOSTILE_COLUMN]: "'; drop" })] });
  });

  it('returns a computed field of the changed rows, rebuilding the row type from the CTE', async () => {
    const s = await mutate('courses', 'DELETE', 'id=in.(1,2)&select=label', undefined, { prefer: 'return=representation' });
    const del = `delete from "public"."courses" as "pgrst_m" where "pgrst_m"."id" in ($1::text::integer, $2::text::integer) returning "pgrst_m" as r, false as ins`;
    const row = `row("pgrst_t0"."id", "pgrst_t0"."school_id", "pgrst_t0"."title", "pgrst_t0"."meta")::"public"."courses"`;
    const body = `(select pgrst_b.body from (${arrayBody(`select "public"."label"(${row}) as "label" from pgrst_source as "pgrst_t0"`)}) as pgrst_b)`;
    expect(s).toEqual({ sql: withChange(del, body), params: ['1', '2'] });
  });

  it('an update without columns renders nothing to run', async () => {
    expect(await mutate('courses', 'PATCH', 'id=eq.1', {})).toBeNull();
  });
});

describe('rpc', () => {
  it('calls with named arguments from one JSON parameter; a scalar result', async () => {
    const s = await rpc('add', 'POST', '', { a: 1, b: "2'); --" });
    const call = `select "pgrst_f".* from json_to_record($1::text::json) as "pgrst_args"("a" integer, "b" integer) cross join lateral "public"."add"("a" => "pgrst_args"."a", "b" => "pgrst_args"."b") as "pgrst_f"("pgrst_scalar")`;
    expect(s.sql).toBe(
      `with pgrst_source as materialized (${call}) select count(*) as n, null as total, coalesce((json_agg(pgrst_scalar)->0)::text, 'null') as body from (select pgrst_scalar from pgrst_source) as pgrst_t`,
    );
    expect(s.params).toEqual(['{"a":1,"b":"2\'); --"}']);
  });

  it('GET: arguments from the query string, the other parameters filter and order the rows', async () => {
    const s = await rpc('courses_of', 'GET', 'school_id=1&select=id&title=eq.x&order=id', undefined, { prefer: 'count=exact' });
    const call = `select "pgrst_f".* from json_to_record($1::text::json) as "pgrst_args"("school_id" integer) cross join lateral "public"."courses_of"("school_id" => "pgrst_args"."school_id") as "pgrst_f"`;
    const total = `(select count(*) from pgrst_source as "pgrst_t0" where "pgrst_t0"."title" = $2::text::text)`;
    const rows = `select "pgrst_t0"."id" as "id" from pgrst_source as "pgrst_t0" where "pgrst_t0"."title" = $3::text::text order by "pgrst_t0"."id" asc`;
    expect(s.sql).toBe(`with pgrst_source as materialized (${call}) ${readOf(rows, total)}`);
    expect(s.params).toEqual(['{"school_id":"1"}', 'x', 'x']);
  });
});
