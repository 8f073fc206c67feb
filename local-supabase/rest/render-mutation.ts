// Rendering POST (insert, upsert), PATCH and DELETE. The statement modifies rows in a CTE that
// returns whole rows (`pgrst_ret`) and tells fresh inserts apart (`ins`); the representation is read
// from them (render.ts), so a mutation is one statement in one transaction. The JSON body is one
// bound parameter turned into rows by json_populate_record(set). Pure: from the plan.
import { qualified, quoteIdent } from './ident.ts';
import { MUTATION_ALIAS, type MutationPlan } from './plan-mutation.ts';
import { RenderContext, type Statement } from './render-context.ts';
import { whereList } from './render-where.ts';

/** The `insert|update|delete … returning` of the pgrst_ret CTE; null: an update without columns changes nothing. */
export function mutationSql(plan: MutationPlan): Statement | null {
  if (plan.kind === 'insert') {
    const ctx = new RenderContext(plan.table.schema);
    return ctx.statement(insertSql(plan, ctx));
  }
  const ctx = RenderContext.of(plan.where!);
  const where = whereList(ctx, plan.where!.root);
  if (plan.kind === 'delete') return ctx.statement(deleteSql(plan, where));
  if (!plan.columns.length) return null;
  return ctx.statement(updateSql(plan, where, ctx));
}

function insertSql(plan: MutationPlan, ctx: RenderContext): string {
  const { table, columns } = plan;
  const target = `${qualified(table.schema, table.name)} as ${quoteIdent(MUTATION_ALIAS)}`;
  const rowType = `null::${qualified(table.schema, table.name)}`;
  const cols = columns.map(quoteIdent).join(', ');
  let sql: string;
  if (!columns.length) {
    // `{}` rows: every column takes its default.
    sql = `insert into ${target} select from json_populate_recordset(${rowType}, ${ctx.param(JSON.stringify(plan.rows))}::json) as _`;
  } else if (plan.missingDefault) {
    // Prefer: missing=default, as PostgREST does it: each row is laid over the defaults of the
    // columns given, evaluated for every row (so a sequence advances once per row, as there).
    const defaults = columns.flatMap((c) => {
      const d = table.columnMap.get(c)!.default;
      return d === null ? [] : [`${ctx.param(c)}, ${d}`];
    });
    const e = quoteIdent('pgrst_e');
    const rows = `(select jsonb_agg(jsonb_build_object(${defaults.join(', ')}) || ${e}) from jsonb_array_elements(${ctx.param(JSON.stringify(plan.rows))}::jsonb) as ${e})`;
    sql = `insert into ${target} (${cols}) select ${cols} from jsonb_populate_recordset(${rowType}, ${rows}) as _`;
  } else {
    sql = `insert into ${target} (${cols}) select ${cols} from json_populate_recordset(${rowType}, ${ctx.param(JSON.stringify(plan.rows))}::json) as _`;
  }
  if (plan.resolution && plan.onConflict.length) {
    const updates = columns.map((c) => `${quoteIdent(c)} = excluded.${quoteIdent(c)}`);
    sql += ` on conflict (${plan.onConflict.map(quoteIdent).join(', ')}) ` + (plan.resolution === 'merge-duplicates' && updates.length ? `do update set ${updates.join(', ')}` : 'do nothing');
  }
  // xmax = 0 tells a fresh insert from a row an upsert updated.
  return `${sql} returning ${quoteIdent(MUTATION_ALIAS)} as r, (${quoteIdent(MUTATION_ALIAS)}.xmax = 0) as ins`;
}

function updateSql(plan: MutationPlan, where: string[], ctx: RenderContext): string {
  const { table } = plan;
  const body = quoteIdent('pgrst_body');
  const sets = plan.columns.map((c) => `${quoteIdent(c)} = ${body}.${quoteIdent(c)}`).join(', ');
  return (
    `update ${qualified(table.schema, table.name)} as ${quoteIdent(MUTATION_ALIAS)} set ${sets} ` +
    `from (select * from json_populate_record(null::${qualified(table.schema, table.name)}, ${ctx.param(JSON.stringify(plan.rows[0]))}::json)) as ${body}` +
    (where.length ? ` where ${where.join(' and ')}` : '') +
    ` returning ${quoteIdent(MUTATION_ALIAS)} as r, false as ins`
  );
}

function deleteSql(plan: MutationPlan, where: string[]): string {
  const { table } = plan;
  return (
    `delete from ${qualified(table.schema, table.name)} as ${quoteIdent(MUTATION_ALIAS)}` +
    (where.length ? ` where ${where.join(' and ')}` : '') +
    ` returning ${quoteIdent(MUTATION_ALIAS)} as r, false as ins`
  );
}
