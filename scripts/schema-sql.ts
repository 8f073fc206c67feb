// supabase/schemas/<area>.sql from the live catalog of a migrated database: today's SQL, one file per
// area of the product, in the order a reader needs it (each table with its columns, constraints,
// indexes, grants, row-level security, policies and triggers; then the current text of the area's
// functions, as pg_get_functiondef prints it). The migrations stay the history and the only thing
// deployed; these files are generated for reading, as docs/schema.md is (`npm run gen:schema-doc`
// writes both, and a test fails when either is out of date).
//
// Which area an object belongs to is decided here, by these rules in this order:
//   1. a table: the area that lists it in AREAS (every table must be listed: the generator refuses an
//      unlisted one, so a new table is placed on purpose);
//   2. a trigger function: the area of the tables whose triggers call it, when they are all of one area
//      (it is read beside the trigger); called from several areas, it is a platform helper;
//   3. any other function: the first area in AREAS whose `functions` pattern matches its name;
//   4. otherwise platform-helpers;
//   5. a scheduled job (pg_cron): the area of the first of our tables or functions its command names.
import type { Engine, Sql } from '../local-supabase/db/engine.ts';

export interface Area {
  /** The file's name, supabase/schemas/<file>.sql. */
  file: string;
  title: string;
  /** One sentence for the file's header and docs/data-model.md. */
  about: string;
  /** Its tables, schema-qualified, in reading order (a table before those that point at it). */
  tables: string[];
  /** Functions (by name, without schema) that belong here unless a trigger placed them first. */
  functions?: RegExp;
}

export const AREAS: Area[] = [
  {
    file: 'platform-helpers',
    title: 'Platform helpers',
    about: 'The private schema, the super admin\'s platform keys, and the helpers every policy and function calls: who is staff of what, the second-factor rule, text and request helpers.',
    tables: ['public.system_config', 'private.system_secrets'],
    functions:
      /^(is_school_staff|is_course_staff|is_super_admin|has_any_role|staff_course_ids|staff_school_ids|staff_school|staff_role_at|my_school_id|is_active|has_verified_factor|second_factor_ok|secret_write_needs_second_factor|request_ip|address_key|search_term|uuid_or_null|is_slug|is_image_position|without_bidi_controls|br_datetime|sp_month|get_system_secret|set_system_config)$/,
  },
  {
    file: 'schools-accounts',
    title: 'Schools and accounts',
    about: 'Schools (tenants) and their branding, the accounts of each school (profiles beside auth.users) and their roles, and the secret that signs the requests of the school\'s own systems (tenant and student webhooks).',
    tables: ['public.schools', 'public.profiles', 'public.user_roles', 'private.school_webhook_secrets', 'private.webhook_signatures_seen', 'auth.users'],
    functions: /school_webhook_secret|^(claim_webhook_signature|new_webhook_secret|handle_new_user|handle_user_\w+|auth_user_\w+|find_user_id_by_email|account_email|email_confirmed|password_change_pending|refuse_while_password_change_pending|granted_while_unconfirmed|sign_in_record_activity)$/,
  },
  {
    file: 'courses-content',
    title: 'Courses and their content',
    about: 'Courses, modules (with drip release), lessons and their protected contents, materials and announcements; what staff edit and what a student may see of it.',
    tables: ['public.courses', 'public.modules', 'public.lessons', 'public.lesson_contents', 'public.materials', 'public.announcements'],
    functions: /^(reorder_course_content|student_catalog|set_course_from_lesson|can_view_course|viewable_course_ids|announcements_\w+)$/,
  },
  {
    file: 'turmas',
    title: 'Turmas',
    about: 'The classes of a course (issue 40): their dates, seats and waiting list, a turma\'s own module dates, and the staff and checkout functions that put students in them.',
    tables: ['public.turmas', 'public.turma_module_dates', 'public.turma_waitlist'],
    functions: /turma/,
  },
  {
    file: 'learning-progress',
    title: 'Enrollments, access and progress',
    about: 'Who may study what (enrollments, lesson access with drip release), the student\'s progress and ratings, and certificates.',
    tables: ['public.enrollments', 'public.progress', 'public.lesson_ratings', 'public.certificates'],
    functions: /certificate|^enroll\w*|progress|lesson_access|course_access|accessible_\w+|module_release\w*|is_module_released|preview_lesson_ids|^admin_list_students$/,
  },
  {
    file: 'quizzes',
    title: 'Quizzes',
    about: 'Quizzes of a lesson, their published versions and questions, and students\' attempts, answers and grades.',
    tables: ['public.quizzes', 'public.quiz_versions', 'public.quiz_questions', 'public.quiz_attempts', 'public.quiz_attempt_answers'],
    functions: /quiz|overdue_attempt/,
  },
  {
    file: 'recovery',
    title: 'Sales recovery',
    about: 'Checkout sessions from opening to paid or abandoned, the follow-up e-mails and staff contacts, and the school\'s recovery setting (issue 41, docs/recovery.md).',
    tables: ['public.school_recovery_settings', 'public.checkout_sessions', 'public.checkout_session_touches'],
    functions: /recovery|checkout_session|staff_session|checkout_do_not_contact|checkout_staff_contact|has_active_enrollment/,
  },
  {
    file: 'invoices',
    title: 'Notas fiscais',
    about: 'The school\'s NFS-e setting and one invoice per confirmed payment, issued, followed and cancelled through Asaas (issue 42, docs/nota-fiscal.md).',
    tables: ['public.school_invoice_settings', 'public.invoices'],
    functions: /invoice|my_purchases/,
  },
  {
    file: 'affiliates',
    title: 'Afiliados e coprodução',
    about: 'Per-course affiliate programs and co-producers, affiliates, their clicks and attributions, and the commission ledger paid by Asaas\'s split (issue 43, docs/affiliates.md).',
    tables: ['public.affiliate_programs', 'public.course_coproducers', 'public.affiliates', 'public.affiliate_clicks', 'public.affiliate_attributions', 'public.commissions'],
    functions: /affiliate|commission|coproducer|split_event|course_share_cap/,
  },
  {
    file: 'selling-payments',
    title: 'Selling and payments',
    about: 'The school\'s Asaas integration, checkout prices, coupons and order bumps, payments and their items, and the provider\'s events, matched inside the event\'s own school.',
    tables: [
      'public.integration_settings',
      'private.integration_secrets',
      'public.coupons',
      'public.coupon_courses',
      'public.course_bumps',
      'public.payments',
      'public.payment_items',
      'public.coupon_uses',
      'private.coupon_code_misses',
      'private.payment_events',
    ],
    functions: /payment|checkout|coupon|sale|refund|integration|webhook/,
  },
  {
    file: 'subscriptions',
    title: 'Subscriptions',
    about: 'Plans (a price a period for a set of courses) and students\' subscriptions, which keep their enrollments open while paid.',
    tables: ['public.plans', 'public.plan_courses', 'public.subscriptions'],
    functions: /subscription|plan/,
  },
  {
    file: 'emails',
    title: 'E-mails',
    about: 'The outbox written with each event and drained by send-emails, the school\'s sender settings, unsubscribes, and the one-time access links the e-mails carry.',
    tables: ['public.school_email_settings', 'public.email_outbox', 'public.email_unsubscribes', 'private.email_secrets', 'private.access_links'],
    functions: /email|access_link|^(resend_student_access|queue_daily_emails|redeem_access_link)$/,
  },
  {
    file: 'discussions-ranking',
    title: 'Discussions and ranking',
    about: 'Questions and replies under lessons, their moderation, the notifications they raise, and the school\'s monthly ranking.',
    tables: [
      'public.school_discussion_settings',
      'public.lesson_comments',
      'public.lesson_comment_moderation',
      'public.notifications',
      'public.ranking_opt_outs',
      'public.ranking_notices',
      'private.ranking_months',
    ],
    functions: /comment|ranking|notif|^notify/,
  },
  {
    file: 'analytics',
    title: 'Analytics and reports',
    about: 'The students\' daily activity and what the admin dashboard, charts and reports read from it and from the other areas.',
    tables: ['private.student_activity'],
    functions: /chart|report|^(admin_dashboard_counts|record_activity|admin_student_course_progress)$/,
  },
  {
    file: 'storage',
    title: 'Storage',
    about: 'The buckets (their public flag, size limit and file types) and who may read and write which object paths.',
    tables: ['storage.buckets', 'storage.objects'],
    functions: /object|bucket|avatar_url|lesson_file|photo/,
  },
  {
    file: 'video',
    title: 'Hosted video and playback',
    about: 'Lesson videos at the video host and the host videos waiting to be deleted, the school\'s playback settings, playback sessions (the simultaneous screens limit), the suspicious sharing report, and the PDFs stamped per account (download-material\'s hourly limit).',
    tables: ['public.lesson_videos', 'private.video_host_deletions', 'public.school_video_settings', 'private.video_hash_salt', 'private.playback_sessions', 'private.material_stamps'],
    functions: /video|playback|sharing|^(end_account_sessions|network_prefix)$/,
  },
  {
    file: 'audit',
    title: 'Audit log',
    about: 'Every change that staff, the super admin, a webhook or a payment event make to the audited tables, written by a trigger, append-only, kept for the platform\'s retention (issue 44, docs/privacy.md).',
    tables: ['public.audit_log', 'private.audit_retention'],
    functions: /audit/,
  },
];

/** Our schemas; auth and storage belong to the platform, only our triggers and policies on them are shown. */
const OWN_SCHEMAS = ['public', 'private'];
const API_ROLES = ['anon', 'authenticated', 'service_role'];
/** The table privileges every engine has (PostgreSQL 17's MAINTAIN is left out: it is not in 15). */
const TABLE_PRIVILEGES = ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER'];

async function rows<T>(sql: Sql, text: string, params: unknown[] = []): Promise<T[]> {
  return (await sql.query<T>(text, params)).rows;
}

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
const ident = (name: string) => (/^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`);

function dollarQuoted(text: string): string {
  let tag = '$$';
  for (let i = 0; text.includes(tag); i++) tag = `$q${i || ''}$`;
  return `${tag}${text}${tag}`;
}

interface TableInfo {
  qualified: string;
  oid: number;
  kind: 'own' | 'platform';
  rls: boolean;
  forced: boolean;
  comment: string | null;
}

interface FunctionInfo {
  oid: number;
  schema: string;
  name: string;
  signature: string;
  def: string;
  comment: string | null;
  /** The tables whose triggers call it. */
  triggerTables: string[];
}

function grantsOf(privileges: string[], object: string, role: string): string {
  const set = new Set(privileges);
  const list = TABLE_PRIVILEGES.every((p) => set.has(p)) ? 'all' : TABLE_PRIVILEGES.filter((p) => set.has(p)).join(', ').toLowerCase();
  return `grant ${list} on ${object} to ${role};`;
}

async function tableSql(sql: Sql, t: TableInfo): Promise<string[]> {
  const out: string[] = [];
  if (t.kind === 'own') {
    const columns = await rows<{ name: string; type: string; not_null: boolean; expr: string | null; generated: string; identity: string; comment: string | null }>(
      sql,
      `select a.attname as name, format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as not_null,
              pg_get_expr(d.adbin, d.adrelid) as expr, a.attgenerated as generated, a.attidentity as identity,
              col_description(a.attrelid, a.attnum) as comment
         from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
        where a.attrelid = $1 and a.attnum > 0 and not a.attisdropped order by a.attnum`,
      [t.oid],
    );
    // Primary key, unique, check, foreign key and exclusion constraints, in that order, then by name.
    const constraints = await rows<{ name: string; def: string }>(
      sql,
      `select conname as name, pg_get_constraintdef(oid) as def from pg_constraint
        where conrelid = $1 and contype in ('p', 'u', 'c', 'f', 'x')
        order by strpos('pucfx', contype::text), conname`,
      [t.oid],
    );
    const lines = columns.map((c) => {
      let line = `  ${ident(c.name)} ${c.type}`;
      if (c.generated === 's') line += ` generated always as (${c.expr}) stored`;
      else if (c.identity) line += ` generated ${c.identity === 'a' ? 'always' : 'by default'} as identity`;
      else if (c.expr) line += ` default ${c.expr}`;
      if (c.not_null) line += ' not null';
      return line;
    });
    for (const c of constraints) lines.push(`  constraint ${ident(c.name)} ${c.def}`);
    out.push(`create table ${t.qualified} (`, lines.join(',\n'), ');');
    if (t.comment !== null) out.push(`comment on table ${t.qualified} is ${literal(t.comment)};`);
    for (const c of columns) if (c.comment !== null) out.push(`comment on column ${t.qualified}.${ident(c.name)} is ${literal(c.comment)};`);

    const indexes = await rows<{ def: string }>(
      sql,
      `select pg_get_indexdef(x.indexrelid) as def from pg_index x join pg_class i on i.oid = x.indexrelid
        where x.indrelid = $1 and not exists (select 1 from pg_constraint k where k.conindid = x.indexrelid and k.conrelid = x.indrelid)
        order by i.relname`,
      [t.oid],
    );
    if (indexes.length) out.push('', ...indexes.map((i) => `${i.def};`));

    // What the API roles may do with it (the platform grants them everything in public by default).
    const privileges = await rows<{ role: string; privileges: string[] }>(
      sql,
      `select g.grantee::regrole::text as role, array_agg(g.privilege_type order by g.privilege_type) as privileges
         from pg_class c, aclexplode(coalesce(c.relacl, acldefault('r', c.relowner))) g
        where c.oid = $1 and g.grantee in (select oid from pg_roles where rolname = any($2))
        group by 1 order by 1`,
      [t.oid, API_ROLES],
    );
    const columnPrivileges = await rows<{ role: string; privilege: string; columns: string[] }>(
      sql,
      `select g.grantee::regrole::text as role, g.privilege_type as privilege, array_agg(a.attname::text order by a.attnum) as columns
         from pg_attribute a, aclexplode(a.attacl) g
        where a.attrelid = $1 and a.attnum > 0 and not a.attisdropped and a.attacl is not null
          and g.grantee in (select oid from pg_roles where rolname = any($2))
        group by 1, 2 order by 1, array_position($3::text[], g.privilege_type)`,
      [t.oid, API_ROLES, TABLE_PRIVILEGES],
    );
    out.push('', `revoke all on table ${t.qualified} from ${API_ROLES.join(', ')};`);
    for (const p of privileges) out.push(grantsOf(p.privileges.map(String), `table ${t.qualified}`, p.role));
    for (const p of columnPrivileges) out.push(`grant ${p.privilege.toLowerCase()} (${p.columns.map(ident).join(', ')}) on table ${t.qualified} to ${p.role};`);
    if (t.rls) out.push(`alter table ${t.qualified} enable row level security;`);
    if (t.forced) out.push(`alter table ${t.qualified} force row level security;`);
  } else if (t.qualified === 'storage.buckets') {
    // Buckets are rows the migrations insert: their settings, as a migration would write them.
    const buckets = await rows<{ id: string; name: string; public: boolean; file_size_limit: string | null; allowed_mime_types: string[] | null }>(
      sql,
      `select id, name, public, file_size_limit::text as file_size_limit, allowed_mime_types from storage.buckets order by id`,
    );
    if (buckets.length) {
      out.push('insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types) values');
      out.push(
        buckets
          .map((b) => {
            const types = b.allowed_mime_types ? `array[${b.allowed_mime_types.map(literal).join(', ')}]` : 'null';
            return `  (${literal(b.id)}, ${literal(b.name)}, ${b.public}, ${b.file_size_limit ?? 'null'}, ${types})`;
          })
          .join(',\n') + ';',
      );
    }
  }

  const policies = await rows<{ name: string; cmd: string; roles: string[] | string; permissive: string; qual: string | null; with_check: string | null }>(
    sql,
    `select policyname as name, cmd, roles, permissive, qual, with_check from pg_policies
      where schemaname || '.' || tablename = $1 order by policyname`,
    [t.qualified],
  );
  if (policies.length) out.push('');
  for (const p of policies) {
    const roles = (Array.isArray(p.roles) ? p.roles : String(p.roles).replace(/^\{|\}$/g, '').split(',')).sort().join(', ');
    let text = `create policy ${ident(p.name)} on ${t.qualified} as ${p.permissive.toLowerCase()} for ${p.cmd.toLowerCase()} to ${roles}`;
    if (p.qual !== null) text += `\n  using (${p.qual})`;
    if (p.with_check !== null) text += `\n  with check (${p.with_check})`;
    out.push(`${text};`);
  }

  // Our triggers only: on auth and storage tables, those that call a function of ours.
  const triggers = await rows<{ def: string }>(
    sql,
    `select pg_get_triggerdef(g.oid) as def from pg_trigger g join pg_proc p on p.oid = g.tgfoid join pg_namespace n on n.oid = p.pronamespace
      where g.tgrelid = $1 and not g.tgisinternal and n.nspname = any($2) order by g.tgname`,
    [t.oid, OWN_SCHEMAS],
  );
  if (triggers.length) out.push('', ...triggers.map((g) => `${g.def};`));
  return out;
}

async function functionSql(sql: Sql, f: FunctionInfo): Promise<string[]> {
  const out = [f.def.trimEnd() + ';'];
  if (f.comment !== null) out.push(`comment on function ${f.signature} is ${literal(f.comment)};`);
  // Who may call it: PUBLIC and every API role get execute by default, so each function says it.
  const holders = await rows<{ role: string }>(
    sql,
    `select case when g.grantee = 0 then 'public' else g.grantee::regrole::text end as role
       from pg_proc p, aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) g
      where p.oid = $1 and g.privilege_type = 'EXECUTE'
        and (g.grantee = 0 or g.grantee in (select oid from pg_roles where rolname = any($2)))
      order by g.grantee <> 0, 1`,
    [f.oid, API_ROLES],
  );
  out.push(`revoke all on function ${f.signature} from public, ${API_ROLES.join(', ')};`);
  if (holders.length) out.push(`grant execute on function ${f.signature} to ${holders.map((h) => h.role).join(', ')};`);
  return out;
}

/** Which area a function belongs to (rules 2 to 4 above). */
export function areaOfFunction(f: Pick<FunctionInfo, 'name' | 'triggerTables'>, areaOfTable: Map<string, Area>): Area {
  const byTrigger = new Set(f.triggerTables.map((t) => areaOfTable.get(t)));
  if (byTrigger.size === 1) {
    const [area] = byTrigger;
    if (area) return area;
  }
  if (byTrigger.size > 1) return AREAS[0];
  return AREAS.find((a) => a.functions?.test(f.name)) ?? AREAS[0];
}

/** Renders every area's file: its name (without .sql) → its text. */
export async function renderSchemaFiles(engine: Engine): Promise<Map<string, string>> {
  // An empty search_path: every name is printed schema-qualified, so each statement means one thing.
  return engine.transaction((sql) => renderAll(sql), { search_path: '' });
}

async function renderAll(sql: Sql): Promise<Map<string, string>> {
  const areaOfTable = new Map<string, Area>();
  for (const a of AREAS) for (const t of a.tables) areaOfTable.set(t, a);

  const tables = await rows<TableInfo>(
    sql,
    `select n.nspname || '.' || c.relname as qualified, c.oid::int as oid, case when n.nspname = any($1) then 'own' else 'platform' end as kind,
            c.relrowsecurity as rls, c.relforcerowsecurity as forced, obj_description(c.oid, 'pg_class') as comment
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and (n.nspname = any($1) or n.nspname || '.' || c.relname = any($2))`,
    [OWN_SCHEMAS, [...areaOfTable.keys()]],
  );
  const unplaced = tables.filter((t) => !areaOfTable.has(t.qualified)).map((t) => t.qualified);
  if (unplaced.length) throw new Error(`scripts/schema-sql.ts: add ${unplaced.join(', ')} to an area of AREAS`);
  const tableByName = new Map(tables.map((t) => [t.qualified, t]));

  const functions = await rows<FunctionInfo>(
    sql,
    `select p.oid::int as oid, n.nspname as schema, p.proname as name,
            n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' as signature,
            pg_get_functiondef(p.oid) as def, obj_description(p.oid, 'pg_proc') as comment,
            coalesce((select array_agg(distinct tn.nspname || '.' || tc.relname order by tn.nspname || '.' || tc.relname)
                        from pg_trigger g join pg_class tc on tc.oid = g.tgrelid join pg_namespace tn on tn.oid = tc.relnamespace
                       where g.tgfoid = p.oid and not g.tgisinternal), '{}') as "triggerTables"
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = any($1) and p.prokind in ('f', 'p')
        and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
      order by n.nspname = 'private', p.proname, 3`,
    [OWN_SCHEMAS],
  );
  const functionsOf = new Map<Area, FunctionInfo[]>();
  for (const f of functions) {
    const area = areaOfFunction(f, areaOfTable);
    functionsOf.set(area, [...(functionsOf.get(area) ?? []), f]);
  }

  // Scheduled jobs go with the first of our objects their command names (rule 5).
  const jobs = await rows<{ jobname: string; schedule: string; command: string }>(sql, `select jobname, schedule, command from cron.job order by jobname`);
  const jobsOf = new Map<Area, typeof jobs>();
  for (const job of jobs) {
    const named = [...job.command.matchAll(/\b(public|private)\.([a-z_][a-z0-9_]*)/g)].map((m) => `${m[1]}.${m[2]}`);
    const area =
      named.map((n) => areaOfTable.get(n) ?? (functions.some((f) => `${f.schema}.${f.name}` === n) ? areaOfFunction(functions.find((f) => `${f.schema}.${f.name}` === n)!, areaOfTable) : undefined)).find(Boolean) ??
      AREAS[0];
    jobsOf.set(area, [...(jobsOf.get(area) ?? []), job]);
  }

  const files = new Map<string, string>();
  for (const area of AREAS) {
    const out = [
      `-- ${area.title}: ${area.about}`,
      '--',
      '-- GENERATED by `npm run gen:schema-doc` from a database migrated with supabase/migrations/: do not edit.',
      '-- The migrations are the source of truth and the only thing deployed (`supabase db push` applies',
      '-- supabase/migrations/ and never reads this folder). This is today\'s state of the area, for reading:',
      '-- each table with its columns, constraints, indexes, grants, row-level security, policies and',
      '-- triggers, then the current text of every function of the area. Statements are in reading order, not',
      '-- in the order a database would need them; tests/integration/product/schema-files.test.ts fails when',
      '-- this file is out of date. The rule that puts an object in an area is in scripts/schema-sql.ts.',
    ];
    if (area === AREAS[0]) {
      const grants = await rows<{ role: string; privileges: string[] }>(
        sql,
        `select g.grantee::regrole::text as role, array_agg(g.privilege_type order by g.privilege_type) as privileges
           from pg_namespace s, aclexplode(s.nspacl) g
          where s.nspname = 'private' and g.grantee in (select oid from pg_roles where rolname = any($1)) group by 1 order by 1`,
        [API_ROLES],
      );
      out.push('', '-- Helpers, secrets and internal tables live in private, which the API does not expose.', 'create schema if not exists private;');
      for (const g of grants) out.push(`grant ${g.privileges.map((p) => p.toLowerCase()).join(', ')} on schema private to ${g.role};`);
    }
    for (const name of area.tables) {
      const t = tableByName.get(name);
      if (!t) continue;
      const body = await tableSql(sql, t);
      if (!body.length) continue;
      out.push('', `-- ${'='.repeat(100)}`, `-- ${name}`, `-- ${'='.repeat(100)}`, '', ...body);
    }
    const areaFunctions = functionsOf.get(area) ?? [];
    if (areaFunctions.length) out.push('', `-- ${'='.repeat(100)}`, `-- Functions of ${area.title.toLowerCase()}`, `-- ${'='.repeat(100)}`);
    for (const f of areaFunctions) out.push('', ...(await functionSql(sql, f)));
    const areaJobs = jobsOf.get(area) ?? [];
    if (areaJobs.length) out.push('', `-- ${'='.repeat(100)}`, '-- Scheduled jobs (pg_cron)', `-- ${'='.repeat(100)}`, '');
    for (const j of areaJobs) out.push(`select cron.schedule(${literal(j.jobname)}, ${literal(j.schedule)}, ${dollarQuoted(j.command)});`);
    files.set(area.file, out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd() + '\n');
  }
  return files;
}

// ── docs/data-model.md: an overview of each area from the table comments ─────────────────────────────
const OVERVIEW_START = '<!-- generated:areas (npm run gen:schema-doc, from the table comments; do not edit) -->';
const OVERVIEW_END = '<!-- /generated:areas -->';

/** Each area with its tables and what each holds (its comment), for docs/data-model.md. */
export async function renderDataModelOverview(engine: Engine): Promise<string> {
  const { rows: comments } = await engine.query<{ name: string; comment: string | null }>(
    `select n.nspname || '.' || c.relname as name, obj_description(c.oid, 'pg_class') as comment
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = any($1) and c.relkind in ('r', 'p')`,
    [OWN_SCHEMAS],
  );
  const commentOf = new Map(comments.map((c) => [c.name, c.comment]));
  const out: string[] = [];
  for (const area of AREAS) {
    out.push(`### ${area.title} ([supabase/schemas/${area.file}.sql](../supabase/schemas/${area.file}.sql))`, '', area.about, '');
    const tables = area.tables.filter((t) => commentOf.has(t));
    if (!tables.length) continue;
    out.push('| table | what it holds |', '|---|---|');
    for (const t of tables) out.push(`| \`${t}\` | ${(commentOf.get(t) ?? '**no comment: add one in a migration**').replace(/\s+/g, ' ').replace(/\|/g, '\\|')} |`);
    out.push('');
  }
  return out.join('\n').trimEnd();
}

/** docs/data-model.md with its generated overview replaced; the text around it is written by hand. */
export function withDataModelOverview(doc: string, overview: string): string {
  const start = doc.indexOf(OVERVIEW_START);
  const end = doc.indexOf(OVERVIEW_END);
  if (start < 0 || end < start) throw new Error(`docs/data-model.md: the lines ${OVERVIEW_START} and ${OVERVIEW_END} are missing`);
  return `${doc.slice(0, start + OVERVIEW_START.length)}\n\n${overview}\n\n${doc.slice(end)}`;
}
