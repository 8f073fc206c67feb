// Parser of PostgREST's query string: horizontal filters (`col=op.value`, `rel.col=...`), logic trees
// (`or=(...)`, `and=(...)`, `not.or=(...)`), `order`, `limit`, `offset`, `columns`, `on_conflict`.
// Embedded resources are addressed by a path of embed names ("" is the top level, "a.b" nested).
import { parseError } from './errors.ts';
import { Cursor, type Field } from './select-parser.ts';

export const OPERATORS = new Set([
  'eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch', 'is', 'isdistinct', 'in',
  'cs', 'cd', 'ov', 'sl', 'sr', 'nxr', 'nxl', 'adj', 'fts', 'plfts', 'phfts', 'wfts',
]);
const QUANTIFIABLE = new Set(['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch']);
const FTS = new Set(['fts', 'plfts', 'phfts', 'wfts']);

export interface Filter {
  field: Field;
  negate: boolean;
  op: string;
  quantifier?: 'any' | 'all';
  /** Text search configuration of fts operators. */
  config?: string;
  /** A scalar value, or the list of `in` / quantified operators. */
  value: string | string[];
}

export type Condition =
  | { kind: 'filter'; filter: Filter }
  | { kind: 'logic'; op: 'and' | 'or'; negate: boolean; children: Condition[] }
  /** `rel=is.null` / `rel=not.is.null` on an embedded resource. */
  | { kind: 'embedNull'; embed: string; isNull: boolean };

export interface OrderTerm {
  /** Set for `rel(col)`: order by a column of a to-one embedded resource. */
  relation?: string;
  field: Field;
  desc: boolean;
  nulls?: 'first' | 'last';
}

export interface ParsedQuery {
  select: string | null;
  columns: string[] | null;
  onConflict: string[] | null;
  conditions: Map<string, Condition[]>;
  order: Map<string, OrderTerm[]>;
  limit: Map<string, number>;
  offset: Map<string, number>;
}

const add = <T>(m: Map<string, T[]>, k: string, v: T) => {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
};

/** Parses every parameter except those in `skip` (rpc arguments of GET calls). */
export function parseQuery(params: URLSearchParams, skip: Set<string> = new Set()): ParsedQuery {
  const q: ParsedQuery = {
    select: null,
    columns: null,
    onConflict: null,
    conditions: new Map(),
    order: new Map(),
    limit: new Map(),
    offset: new Map(),
  };
  for (const [key, value] of params) {
    if (skip.has(key)) continue;
    if (key === 'select') {
      q.select = value;
      continue;
    }
    if (key === 'columns') {
      q.columns = parseColumnList(value, 'columns');
      continue;
    }
    if (key === 'on_conflict') {
      q.onConflict = parseColumnList(value, 'on_conflict');
      continue;
    }
    const { path, last, negated } = splitKey(key);
    if (!negated && (last === 'order' || last === 'limit' || last === 'offset')) {
      if (last === 'order') {
        for (const term of parseOrder(value)) add(q.order, path, term);
      } else {
        if (!/^\d+$/.test(value)) throw parseError(last, value, 'expecting a non-negative integer');
        q[last].set(path, Number(value));
      }
      continue;
    }
    if (last === 'or' || last === 'and') {
      const c = new Cursor(value, 'logic tree');
      c.expect('(');
      const children = parseLogicItems(c, 0);
      c.expect(')');
      if (!c.done) c.fail('end of input');
      add(q.conditions, path, { kind: 'logic', op: last, negate: negated, children });
      continue;
    }
    if (negated) throw parseError('filter', key, '"not." in a column name must be followed by "or" or "and"');
    // `rel=is.null` on an embed name is told apart from a column filter by the planner.
    const field = parseField(last, key);
    const filter = parseFilterValue(value, field, false);
    add(q.conditions, path, { kind: 'filter', filter });
  }
  return q;
}

/** Splits `a.b.col->x` into the embed path `a.b` and `col->x`; `a.not.or` into path `a`, `or`, negated. */
function splitKey(key: string): { path: string; last: string; negated: boolean } {
  const arrow = key.indexOf('->');
  const head = arrow < 0 ? key : key.slice(0, arrow);
  const tail = arrow < 0 ? '' : key.slice(arrow);
  const parts = head.split('.');
  let last = parts.pop()! + tail;
  let negated = false;
  if (parts.length && parts[parts.length - 1] === 'not' && (last === 'or' || last === 'and')) {
    parts.pop();
    negated = true;
  }
  if (parts.some((p) => p === '')) throw parseError('filter', key, 'empty relation name');
  if (last === '') last = key;
  return { path: parts.join('.'), last, negated };
}

export function parseField(text: string, context: string): Field {
  const c = new Cursor(text, 'filter');
  let name: string;
  try {
    name = c.name('a column name');
  } catch {
    throw parseError('filter', context, 'expecting a column name');
  }
  const json = c.jsonPath();
  if (!c.done) throw parseError('filter', context, `unexpected "${c.text[c.pos]}" in the column name`);
  return { name, json };
}

/** `[not.]op[(any|all)|(config)].value` */
export function parseFilterValue(text: string, field: Field, inLogicTree: boolean): Filter {
  const m = /^(not\.)?([a-z]+)(?:\(([^)]*)\))?\.([\s\S]*)$/.exec(text);
  if (!m || !OPERATORS.has(m[2])) throw parseError('filter', text, `unknown operator; expecting one of ${[...OPERATORS].join(', ')}`);
  const [, not, op, modifier, rawValue] = m;
  const filter: Filter = { field, negate: !!not, op, value: rawValue };
  if (modifier !== undefined) {
    if (FTS.has(op)) {
      if (!/^[A-Za-z0-9_]+$/.test(modifier)) throw parseError('filter', text, 'invalid text search configuration');
      filter.config = modifier;
    } else if ((modifier === 'any' || modifier === 'all') && QUANTIFIABLE.has(op)) {
      filter.quantifier = modifier;
    } else {
      throw parseError('filter', text, `unexpected modifier "(${modifier})"`);
    }
  }
  if (op === 'in') {
    filter.value = parseList(rawValue, '(', ')', text);
  } else if (filter.quantifier) {
    filter.value = parseList(rawValue, '{', '}', text);
  } else if (op === 'is') {
    const v = rawValue.toLowerCase();
    if (!['null', 'not_null', 'true', 'false', 'unknown'].includes(v)) {
      throw parseError('filter', text, 'expecting null, not_null, true, false or unknown after "is."');
    }
    filter.value = v;
  } else if (inLogicTree && rawValue.startsWith('"') && rawValue.endsWith('"') && rawValue.length >= 2) {
    filter.value = unescapeQuoted(rawValue.slice(1, -1));
  }
  return filter;
}

function unescapeQuoted(s: string): string {
  return s.replace(/\\(.)/g, '$1');
}

/** `(a,"b,c",d)`: items may be double-quoted with backslash escapes. */
function parseList(raw: string, open: string, close: string, context: string): string[] {
  if (!raw.startsWith(open) || !raw.endsWith(close)) throw parseError('filter', context, `expecting a list in "${open}${close}"`);
  const body = raw.slice(1, -1);
  const items: string[] = [];
  if (body === '') return items;
  let i = 0;
  while (i <= body.length) {
    if (body[i] === '"') {
      let j = i + 1;
      let value = '';
      while (j < body.length && body[j] !== '"') {
        if (body[j] === '\\' && j + 1 < body.length) j++;
        value += body[j++];
      }
      if (j >= body.length) throw parseError('filter', context, 'unterminated quoted value');
      items.push(value);
      i = j + 1;
      if (i < body.length && body[i] !== ',') throw parseError('filter', context, 'expecting "," after a quoted value');
      i++;
    } else {
      const end = body.indexOf(',', i);
      const stop = end < 0 ? body.length : end;
      items.push(body.slice(i, stop));
      i = stop + 1;
    }
  }
  return items;
}

/** Items of a logic tree, split at top-level commas (respecting (), {} and double quotes). */
function parseLogicItems(c: Cursor, depth: number): Condition[] {
  if (depth > 16) c.fail('a shallower logic tree');
  const out: Condition[] = [];
  do {
    const start = c.pos;
    const m = /^(not\.)?(and|or)\(/.exec(c.text.slice(c.pos));
    if (m) {
      c.pos += m[0].length;
      const children = parseLogicItems(c, depth + 1);
      c.expect(')');
      out.push({ kind: 'logic', op: m[2] as 'and' | 'or', negate: !!m[1], children });
      continue;
    }
    // Scan one `field.op.value` up to a top-level ',' or ')'.
    let parens = 0;
    let braces = 0;
    let quoted = false;
    while (!c.done) {
      const ch = c.text[c.pos];
      if (quoted) {
        if (ch === '\\') c.pos++;
        else if (ch === '"') quoted = false;
      } else if (ch === '"') quoted = true;
      else if (ch === '(') parens++;
      else if (ch === '{') braces++;
      else if (ch === '}') braces--;
      else if (ch === ')') {
        if (parens === 0) break;
        parens--;
      } else if (ch === ',' && parens === 0 && braces === 0) break;
      c.pos++;
    }
    const item = c.text.slice(start, c.pos);
    const dot = item.indexOf('.');
    if (dot <= 0) {
      c.pos = start;
      c.fail('a filter "column.operator.value"');
    }
    const field = parseField(item.slice(0, dot), item);
    out.push({ kind: 'filter', filter: parseFilterValue(item.slice(dot + 1), field, true) });
  } while (c.eat(','));
  return out;
}

/** `a.desc.nullslast,b,rel(c).asc` */
export function parseOrder(text: string): OrderTerm[] {
  const terms: OrderTerm[] = [];
  for (const part of splitTopLevel(text)) {
    const m = /^(?:([^().]+)\(([^()]+)\)|([^().]+))((?:\.(?:asc|desc|nullsfirst|nullslast))*)$/.exec(part);
    if (!m) throw parseError('order', text, `unexpected "${part}"; expecting "column[.asc|.desc][.nullsfirst|.nullslast]"`);
    const mods = m[4] ? m[4].slice(1).split('.') : [];
    const dirs = mods.filter((x) => x === 'asc' || x === 'desc');
    const nulls = mods.filter((x) => x === 'nullsfirst' || x === 'nullslast');
    if (dirs.length > 1 || nulls.length > 1) {
      throw parseError('order', text, 'expecting one direction and one nulls option');
    }
    const term: OrderTerm = {
      relation: m[1],
      field: parseField(m[2] ?? m[3], text),
      desc: dirs[0] === 'desc',
      nulls: nulls[0] === 'nullsfirst' ? 'first' : nulls[0] === 'nullslast' ? 'last' : undefined,
    };
    terms.push(term);
  }
  return terms;
}

function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth--;
    else if (text[i] === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** `"a","b"` or `a,b` (columns=, on_conflict=). */
export function parseColumnList(text: string, what: string): string[] {
  const c = new Cursor(text, what);
  const cols: string[] = [];
  do {
    cols.push(c.name('a column name'));
  } while (c.eat(','));
  if (!c.done) c.fail('"," or end of input');
  return cols;
}
