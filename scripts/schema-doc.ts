// docs/schema.md from the live catalog of a migrated database: what each table holds and allows TODAY
// (its columns, constraints, indexes, triggers and current row-level security policies, whatever
// migration last changed them), and each function's signature and who may call it. Pure over an
// engine, so `npm run gen:schema-doc` writes it and a test checks it is current.
import type { Engine } from '../local-supabase/db/engine.ts';

/** Schemas whose tables are documented (storage: only its policies matter to us). */
const TABLE_SCHEMAS = ['public', 'private', 'storage'];
const FUNCTION_SCHEMAS = ['public', 'private'];
const API_ROLES = ['anon', 'authenticated', 'service_role'];

const cell = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');
const code = (text: string | null | undefined) => (text ? `\`${cell(text)}\`` : '');

async function rows<T>(engine: Engine, sql: string, params: unknown[] = []): Promise<T[]> {
  return (await engine.query<T>(sql, params)).rows;
}

interface TableRow {
  schema: string;
  name: string;
  oid: number;
  rls: boolean;
  forced: boolean;
  comment: string | null;
}

async function tableSection(engine: Engine, t: TableRow): Promise<string[]> {
  const out = [`### ${t.schema}.${t.name}`, ''];
  if (t.comment) out.push(cell(t.comment), '');
  out.push(`Row-level security: ${t.rls ? (t.forced ? 'on (forced)' : 'on') : '**off**'}.`, '');
  if (t.schema !== 'storage') {
    const columns = await rows<{ name: string; type: string; not_null: boolean; default: string | null }>(
      engine,
      `select a.attname as name, format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as not_null, pg_get_expr(d.adbin, d.adrelid) as default
         from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
        where a.attrelid = $1 and a.attnum > 0 and not a.attisdropped order by a.attnum`,
      [t.oid],
    );
    out.push('| column | type | null | default |', '|---|---|---|---|');
    for (const c of columns) out.push(`| ${c.name} | ${cell(c.type)} | ${c.not_null ? 'not null' : 'null'} | ${code(c.default)} |`);
    out.push('');
    const constraints = await rows<{ name: string; def: string }>(
      engine,
      `select conname as name, pg_get_constraintdef(oid) as def from pg_constraint where conrelid = $1 and contype <> 'n' order by conname`,
      [t.oid],
    );
    if (constraints.length) {
      out.push('Constraints:', '');
      for (const c of constraints) out.push(`- \`${c.name}\`: ${code(c.def)}`);
      out.push('');
    }
    const indexes = await rows<{ name: string; def: string }>(
      engine,
      `select i.relname as name, pg_get_indexdef(i.oid) as def from pg_index x join pg_class i on i.oid = x.indexrelid
        where x.indrelid = $1 and not x.indisprimary order by i.relname`,
      [t.oid],
    );
    if (indexes.length) {
      out.push('Indexes:', '');
      for (const i of indexes) out.push(`- \`${i.name}\`: ${code(i.def.replace(/ ON [\w.]+ USING /, ' USING '))}`);
      out.push('');
    }
    const triggers = await rows<{ name: string; def: string }>(
      engine,
      `select tgname as name, pg_get_triggerdef(oid) as def from pg_trigger where tgrelid = $1 and not tgisinternal order by tgname`,
      [t.oid],
    );
    if (triggers.length) {
      out.push('Triggers:', '');
      for (const g of triggers) out.push(`- \`${g.name}\`: ${code(g.def.replace(/^CREATE (CONSTRAINT )?TRIGGER \S+ /, ''))}`);
      out.push('');
    }
  }
  const policies = await rows<{ name: string; cmd: string; roles: string[] | string; permissive: string; qual: string | null; with_check: string | null }>(
    engine,
    `select policyname as name, cmd, roles, permissive, qual, with_check from pg_policies where schemaname = $1 and tablename = $2 order by policyname`,
    [t.schema, t.name],
  );
  if (policies.length) {
    out.push('Policies (current):', '', '| policy | command | roles | kind | using | with check |', '|---|---|---|---|---|---|');
    for (const p of policies) {
      const roles = (Array.isArray(p.roles) ? p.roles : String(p.roles).replace(/^\{|\}$/g, '').split(',')).sort().join(', ');
      out.push(`| ${p.name} | ${p.cmd} | ${roles} | ${p.permissive.toLowerCase()} | ${code(p.qual)} | ${code(p.with_check)} |`);
    }
    out.push('');
  } else if (t.rls) {
    out.push('No policy: nobody but the service role reaches its rows.', '');
  }
  return out;
}

async function functionsSection(engine: Engine): Promise<string[]> {
  const fns = await rows<{ schema: string; name: string; args: string; result: string; definer: boolean; anon: boolean; authenticated: boolean; service_role: boolean }>(
    engine,
    `select n.nspname as schema, p.proname as name, pg_get_function_identity_arguments(p.oid) as args, pg_get_function_result(p.oid) as result,
            p.prosecdef as definer, ${API_ROLES.map((r) => `has_function_privilege('${r}', p.oid, 'execute') as ${r}`).join(', ')}
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = any($1) and p.prokind in ('f', 'p')
        and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
      order by 1, 2, 3`,
    [FUNCTION_SCHEMAS],
  );
  const out = ['## Functions', '', 'Who may call each over the API (`execute` privilege); `definer` runs with its owner\'s rights.', ''];
  out.push('| function | returns | security | anon | authenticated | service_role |', '|---|---|---|---|---|---|');
  for (const f of fns) {
    const mark = (b: boolean) => (b ? 'yes' : '—');
    out.push(`| ${code(`${f.schema}.${f.name}(${f.args})`)} | ${code(f.result)} | ${f.definer ? 'definer' : 'invoker'} | ${mark(f.anon)} | ${mark(f.authenticated)} | ${mark(f.service_role)} |`);
  }
  out.push('');
  return out;
}

export async function renderSchemaDoc(engine: Engine): Promise<string> {
  const tables = await rows<TableRow>(
    engine,
    `select n.nspname as schema, c.relname as name, c.oid::int as oid, c.relrowsecurity as rls, c.relforcerowsecurity as forced, obj_description(c.oid, 'pg_class') as comment
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = any($1) and c.relkind in ('r', 'p')
        and (n.nspname <> 'storage' or c.relname in ('objects', 'buckets'))
      order by 1, 2`,
    [TABLE_SCHEMAS],
  );
  const out = [
    '# Database schema (generated)',
    '',
    '<!-- Written by `npm run gen:schema-doc` from a database migrated with supabase/migrations; do not edit.',
    '     tests/integration/product/schema-doc.test.ts fails when it is out of date. -->',
    '',
    'What each table holds and allows today, whatever migration last changed it: columns, constraints,',
    'indexes, triggers and the current row-level security policies; then every function with who may call it.',
    '',
    '## Tables',
    '',
  ];
  for (const t of tables) out.push(...(await tableSection(engine, t)));
  out.push(...(await functionsSection(engine)));
  return out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd() + '\n';
}
