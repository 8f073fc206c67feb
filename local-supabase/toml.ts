// The small part of TOML that local-supabase reads from supabase/config.toml: `[dotted.table]`
// headers and `key = value` lines whose value is a string, a number or a boolean. Arrays, inline
// tables and multi-line strings are not understood (those lines are skipped).

export type TomlValue = string | number | boolean;

/** Strips a TOML comment that is not inside a quoted string. */
function stripComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#') return line.slice(0, i);
  }
  return line;
}

/** `functions."my-fn"` → ['functions', 'my-fn'] (bare, "basic" and 'literal' keys). */
function tableKey(header: string): string[] {
  const parts: string[] = [];
  const re = /\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*(?:\.|$)/y;
  let m: RegExpExecArray | null;
  while (re.lastIndex < header.length && (m = re.exec(header))) parts.push(m[1] ?? m[2] ?? m[3]);
  return parts;
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\' };

function parseValue(raw: string): TomlValue | undefined {
  const basic = raw.match(/^"((?:[^"\\]|\\.)*)"$/);
  if (basic) return basic[1]!.replace(/\\(.)/g, (_, c: string) => ESCAPES[c] ?? c);
  const literal = raw.match(/^'([^']*)'$/);
  if (literal) return literal[1]!;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  if (/^[+-]?\d[\d_]*(?:\.\d+)?$/.test(raw)) return Number(raw.replace(/_/g, ''));
  return undefined;
}

/** The `key = value` pairs of one table, e.g. readTomlTable(text, ['auth', 'rate_limit']). */
export function readTomlTable(toml: string, table: readonly string[]): Record<string, TomlValue> {
  const out: Record<string, TomlValue> = {};
  let inTable = false;
  for (const raw of toml.split(/\r?\n/)) {
    const line = stripComment(raw).trim();
    const header = line.match(/^\[([^[\]]+)\]$/);
    if (header) {
      const key = tableKey(header[1]!);
      inTable = key.length === table.length && key.every((k, i) => k === table[i]);
      continue;
    }
    if (!inTable) continue;
    const setting = line.match(/^([A-Za-z0-9_-]+)\s*=\s*(.+)$/);
    if (!setting) continue;
    const value = parseValue(setting[2]!.trim());
    if (value !== undefined && !(setting[1]! in out)) out[setting[1]!] = value;
  }
  return out;
}

/** A one-line array of strings, e.g. `schemas = ["public", "graphql_public"]` in `[api]`; undefined when absent. */
export function readTomlStringArray(toml: string, table: readonly string[], key: string): string[] | undefined {
  let inTable = false;
  for (const raw of toml.split(/\r?\n/)) {
    const line = stripComment(raw).trim();
    const header = line.match(/^\[([^[\]]+)\]$/);
    if (header) {
      const k = tableKey(header[1]!);
      inTable = k.length === table.length && k.every((part, i) => part === table[i]);
      continue;
    }
    if (!inTable) continue;
    const m = line.match(/^([A-Za-z0-9_-]+)\s*=\s*\[(.*)\]$/);
    if (!m || m[1] !== key) continue;
    const items = m[2]!.split(',').map((s) => s.trim()).filter(Boolean);
    const values = items.map((s) => parseValue(s));
    return values.every((v): v is string => typeof v === 'string') ? values : undefined;
  }
  return undefined;
}
