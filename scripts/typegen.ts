// Renders the TypeScript types of the `public` schema in the shape `supabase gen types typescript`
// produces (Database with Tables/Views/Functions/Enums/CompositeTypes and the Tables<> helpers).
// Output is deterministic: everything is sorted by name.
import type { Sql } from '../local-supabase/db/engine.ts';
import type { Catalog, CatalogForeignKey, CatalogFunction, CatalogTable, PgType } from '../local-supabase/rest/catalog.ts';

/** table → column → the values a one-column check constraint allows (`check (status in ('A', 'B'))`). */
export type ColumnChecks = Record<string, Record<string, string[]>>;

/**
 * The domain values of text columns, from their check constraints of the form `col in (...)`, which
 * PostgreSQL deparses as `CHECK ((col = ANY (ARRAY['A'::text, 'B'::text])))` (the same on PGlite and
 * PostgreSQL 15). They become literal unions in the types and `Constants.public.Checks`, so the SPA
 * never retypes a status or a type by hand.
 */
export async function readColumnChecks(sql: Sql, schema = 'public'): Promise<ColumnChecks> {
  const { rows } = await sql.query<{ table: string; def: string }>(
    `select c.relname as table, pg_get_constraintdef(co.oid) as def from pg_constraint co join pg_class c on c.oid = co.conrelid
      where co.contype = 'c' and c.relnamespace = to_regnamespace($1)::oid and array_length(co.conkey, 1) = 1 order by 1, 2`,
    [schema],
  );
  const checks: ColumnChecks = {};
  for (const { table, def } of rows) {
    const m = /^CHECK \(\(\(?"?(\w+)"?\)?(?:::text)? = ANY \(\(?ARRAY\[(.*)\]\)?(?:::text\[\])?\)\)\)$/.exec(def);
    if (!m) continue;
    const values = [...m[2]!.matchAll(/'((?:[^']|'')*)'::text/g)].map((v) => v[1]!.replace(/''/g, "'"));
    if (values.length) (checks[table] ??= {})[m[1]!] = values;
  }
  return checks;
}

const NUMBER = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric', 'oid']);
const STRING = new Set([
  'bytea', 'bpchar', 'varchar', 'date', 'text', 'citext', 'time', 'timetz', 'timestamp', 'timestamptz', 'uuid',
  'vector', 'interval', 'inet', 'cidr', 'macaddr', 'money', 'tsvector', 'tsquery', 'name', 'char', 'xml',
  'int4range', 'int8range', 'numrange', 'tsrange', 'tstzrange', 'daterange', 'regclass', 'regtype', 'bit', 'varbit',
]);

const byName = <T extends { name: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const key = (name: string) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name));
const str = (s: string) => JSON.stringify(s);

function scalarType(name: string, kind: string | null, schema: string): string {
  if (kind === 'e' && schema === 'public') return `Database["public"]["Enums"][${str(name)}]`;
  if (kind === 'c' && schema === 'public') return `Database["public"]["CompositeTypes"][${str(name)}]`;
  if (name === 'bool') return 'boolean';
  if (NUMBER.has(name)) return 'number';
  if (STRING.has(name)) return 'string';
  if (name === 'json' || name === 'jsonb') return 'Json';
  if (name === 'void') return 'undefined';
  if (name === 'record') return 'Record<string, unknown>';
  return 'unknown';
}

export function tsType(t: PgType): string {
  if (t.elem) return `${scalarType(t.elem, t.elemKind, t.schema)}[]`;
  return scalarType(t.name, t.kind, t.schema);
}

function block(lines: string[], indent: string): string {
  return lines.map((l) => (l ? indent + l : l)).join('\n');
}

function objectType(fields: string[], indent: string, closeIndent: string): string {
  if (!fields.length) return '{\n' + indent + '[_ in never]: never\n' + closeIndent + '}';
  return '{\n' + block(fields, indent) + '\n' + closeIndent + '}';
}

function relationships(table: CatalogTable, fks: CatalogForeignKey[], indent: string): string {
  const own = fks.filter((f) => f.table === table.name).sort(byName);
  if (!own.length) return '[]';
  const isUnique = (cols: string[]) => table.uniques.some((u) => u.length === cols.length && u.every((c) => cols.includes(c)));
  const items = own.map((f) =>
    [
      '{',
      `  foreignKeyName: ${str(f.name)}`,
      `  columns: [${f.columns.map(str).join(', ')}]`,
      `  isOneToOne: ${isUnique(f.columns)}`,
      `  referencedRelation: ${str(f.refTable)}`,
      `  referencedColumns: [${f.refColumns.map(str).join(', ')}]`,
      '},',
    ].map((l) => indent + '  ' + l).join('\n'),
  );
  return '[\n' + items.join('\n') + '\n' + indent + ']';
}

function tableBlock(t: CatalogTable, catalog: Catalog, indent: string, isView: boolean, checks: ColumnChecks): string {
  const cols = [...t.columns].sort(byName);
  const allowed = isView ? {} : (checks[t.name] ?? {});
  const typeOf = (c: CatalogTable['columns'][number]) => (allowed[c.name] ? allowed[c.name]!.map(str).join(' | ') : tsType(c.type));
  const row = cols.map((c) => `${key(c.name)}: ${typeOf(c)}${c.nullable || isView ? ' | null' : ''}`);
  const i2 = indent + '  ';
  const i3 = indent + '    ';
  const lines = [`${key(t.name)}: {`, `  Row: ${objectType(row, i3, i2)}`];
  const writable = !isView || t.insertable || t.updatable;
  if (writable) {
    const never = (c: CatalogTable['columns'][number]) => c.generated === 's' || c.identity === 'a';
    const insert = cols
      .filter((c) => !isView || c.updatable)
      .map((c) => {
        if (never(c)) return `${key(c.name)}?: never`;
        const optional = isView || c.nullable || c.hasDefault || c.identity === 'd';
        return `${key(c.name)}${optional ? '?' : ''}: ${typeOf(c)}${c.nullable || isView ? ' | null' : ''}`;
      });
    const update = cols
      .filter((c) => !isView || c.updatable)
      .map((c) => (never(c) ? `${key(c.name)}?: never` : `${key(c.name)}?: ${typeOf(c)}${c.nullable || isView ? ' | null' : ''}`));
    lines.push(`  Insert: ${objectType(insert, i3, i2)}`, `  Update: ${objectType(update, i3, i2)}`);
  }
  lines.push(`  Relationships: ${relationships(t, catalog.foreignKeys, i2)}`, '}');
  return block(lines, indent);
}

function functionReturn(f: CatalogFunction, catalog: Catalog, indent: string): string {
  let base: string;
  if (f.returnColumns) {
    const table = f.returnTable ? catalog.tables.find((t) => t.name === f.returnTable) : undefined;
    const cols = [...f.returnColumns].sort(byName).map((c) => {
      const nullable = table ? table.columns.find((x) => x.name === c.name)?.nullable !== false : true;
      return `${key(c.name)}: ${tsType(c.type)}${nullable ? ' | null' : ''}`;
    });
    base = objectType(cols, indent + '  ', indent);
  } else {
    base = tsType(f.returnType);
  }
  return f.returnsSet ? `${base}[]` : base;
}

function functionsBlock(catalog: Catalog, indent: string): string {
  const groups = new Map<string, CatalogFunction[]>();
  for (const f of catalog.functions) {
    if (f.args.some((a) => (a.mode === 'i' || a.mode === 'b' || a.mode === 'v') && !a.name)) continue;
    groups.set(f.name, [...(groups.get(f.name) ?? []), f]);
  }
  const names = [...groups.keys()].sort();
  if (!names.length) return '{\n' + indent + '  [_ in never]: never\n' + indent + '}';
  const out: string[] = [];
  const i1 = indent + '  ';
  for (const name of names) {
    // Overloads are a union, in a stable order.
    const variants = groups
      .get(name)!
      .map((f) => {
        const inputs = f.args.filter((a) => a.mode === 'i' || a.mode === 'b' || a.mode === 'v').sort(byName);
        // Unlike `supabase gen types`, an argument also takes null: SQL functions accept NULL for any
        // argument (ours give it a meaning, e.g. p_limit null = every row), and a typed client must
        // be able to send it without a cast.
        const args = inputs.length
          ? '{ ' + inputs.map((a) => `${key(a.name)}${a.hasDefault ? '?' : ''}: ${tsType(a.type)} | null`).join('; ') + ' }'
          : 'never';
        return (at: string) => `{\n${at}  Args: ${args}\n${at}  Returns: ${functionReturn(f, catalog, at + '  ')}\n${at}}`;
      })
      .sort((x, y) => (x('') < y('') ? -1 : 1));
    if (variants.length === 1) out.push(`${i1}${key(name)}: ${variants[0](i1)}`);
    else out.push(`${i1}${key(name)}:\n` + variants.map((v) => `${i1}  | ${v(i1 + '    ')}`).join('\n'));
  }
  return '{\n' + out.join('\n') + '\n' + indent + '}';
}

export function generateTypes(catalog: Catalog, checks: ColumnChecks = {}): string {
  const base = catalog.tables.filter((t) => t.kind === 'r' || t.kind === 'p' || t.kind === 'f').sort(byName);
  const views = catalog.tables.filter((t) => t.kind === 'v' || t.kind === 'm').sort(byName);
  const enums = [...catalog.enums].sort(byName);
  const composites = [...catalog.compositeTypes].sort(byName);
  const ind = '      ';
  const section = (items: string[]) => (items.length ? '{\n' + items.join('\n') + '\n    }' : '{\n      [_ in never]: never\n    }');

  const tablesSrc = section(base.map((t) => tableBlock(t, catalog, ind, false, checks)));
  const viewsSrc = section(views.map((t) => tableBlock(t, catalog, ind, true, checks)));
  const enumsSrc = section(enums.map((e) => `${ind}${key(e.name)}: ${e.values.map(str).join(' | ')}`));
  const compositeSrc = section(
    composites.map((c) => `${ind}${key(c.name)}: ${objectType([...c.attributes].sort(byName).map((a) => `${key(a.name)}: ${tsType(a.type)} | null`), ind + '  ', ind)}`),
  );
  const checkTables = Object.keys(checks).sort();
  const checksSrc = checkTables.length
    ? `{\n${checkTables
        .map((t) => `      ${key(t)}: {\n${Object.keys(checks[t]!).sort().map((c) => `        ${key(c)}: [${checks[t]![c]!.map(str).join(', ')}],`).join('\n')}\n      },`)
        .join('\n')}\n    }`
    : '{}';
  const enumsConst = enums.length ? `{\n${enums.map((e) => `      ${key(e.name)}: [${e.values.map(str).join(', ')}],`).join('\n')}\n    }` : '{}';
  // Checks: the values of check-constrained text columns (readColumnChecks), beside supabase's Enums.
  const constants = `{\n    Enums: ${enumsConst},\n    Checks: ${checksSrc},\n  }`;

  return `// Generated by \`npm run gen:types\` from the live catalog; do not edit by hand.
export type Json =
  | string
  | number
  | boolean
  | null
  | { [key: string]: Json | undefined }
  | Json[]

export type Database = {
  // Allows to automatically instantiate createClient with right options
  // instead of createClient<Database, { PostgrestVersion: 'XX' }>(URL, KEY)
  __InternalSupabase: {
    PostgrestVersion: "12"
  }
  public: {
    Tables: ${tablesSrc}
    Views: ${viewsSrc}
    Functions: ${functionsBlock(catalog, '    ')}
    Enums: ${enumsSrc}
    CompositeTypes: ${compositeSrc}
  }
}

${HELPERS}
export const Constants = {
  public: ${constants},
} as const
`;
}

const HELPERS = `type DatabaseWithoutInternals = Omit<Database, "__InternalSupabase">

type DefaultSchema = DatabaseWithoutInternals[Extract<keyof Database, "public">]

export type Tables<
  DefaultSchemaTableNameOrOptions extends
    | keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
        DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])
    : never = never,
> = DefaultSchemaTableNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
      DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])[TableName] extends {
      Row: infer R
    }
    ? R
    : never
  : DefaultSchemaTableNameOrOptions extends keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
    ? (DefaultSchema["Tables"] & DefaultSchema["Views"])[DefaultSchemaTableNameOrOptions] extends {
        Row: infer R
      }
      ? R
      : never
    : never

export type TablesInsert<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never = never,
> = DefaultSchemaTableNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Insert: infer I
    }
    ? I
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
    ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
        Insert: infer I
      }
      ? I
      : never
    : never

export type TablesUpdate<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never = never,
> = DefaultSchemaTableNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Update: infer U
    }
    ? U
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
    ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
        Update: infer U
      }
      ? U
      : never
    : never

export type Enums<
  DefaultSchemaEnumNameOrOptions extends
    | keyof DefaultSchema["Enums"]
    | { schema: keyof DatabaseWithoutInternals },
  EnumName extends DefaultSchemaEnumNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"]
    : never = never,
> = DefaultSchemaEnumNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"][EnumName]
  : DefaultSchemaEnumNameOrOptions extends keyof DefaultSchema["Enums"]
    ? DefaultSchema["Enums"][DefaultSchemaEnumNameOrOptions]
    : never

export type CompositeTypes<
  PublicCompositeTypeNameOrOptions extends
    | keyof DefaultSchema["CompositeTypes"]
    | { schema: keyof DatabaseWithoutInternals },
  CompositeTypeName extends PublicCompositeTypeNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"]
    : never = never,
> = PublicCompositeTypeNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"][CompositeTypeName]
  : PublicCompositeTypeNameOrOptions extends keyof DefaultSchema["CompositeTypes"]
    ? DefaultSchema["CompositeTypes"][PublicCompositeTypeNameOrOptions]
    : never
`;
