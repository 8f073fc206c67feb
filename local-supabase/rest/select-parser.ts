// Parser of PostgREST's `select=` grammar:
//   items  := item (',' item)*
//   item   := '*' | '...' embed | [alias ':'] (embed | field)
//   embed  := name ('!' hint)* '(' [items] ')'
//   field  := name (('->' | '->>') key)* ['::' type] ['.' aggregate '()' ['::' type]]
//   aggregate := 'avg' | 'count' | 'max' | 'min' | 'sum'   (also a bare 'count()')
// Names may be double-quoted. The result only names things; the planner checks them against the cache.
import { parseError } from './errors.ts';
import { CAST_TYPE } from './ident.ts';

export interface JsonStep {
  arrow: '->' | '->>';
  key: string;
}

export interface Field {
  name: string;
  json: JsonStep[];
}

export const AGGREGATES = ['avg', 'count', 'max', 'min', 'sum'] as const;
export type Aggregate = (typeof AGGREGATES)[number];

export type SelectItem =
  | { kind: 'star' }
  /** `col.sum()`, `count()`: `cast` applies to the input, `outCast` to the result. */
  | { kind: 'aggregate'; fn: Aggregate; field: Field | null; alias?: string; cast?: string; outCast?: string }
  | { kind: 'field'; field: Field; alias?: string; cast?: string }
  | {
      kind: 'embed';
      name: string;
      alias?: string;
      hint?: string;
      inner: boolean;
      spread: boolean;
      children: SelectItem[];
    };

const STOP = new Set([',', '(', ')', '!', ':', '.', '"', '*']);

export class Cursor {
  pos = 0;
  constructor(
    readonly text: string,
    private readonly what: string,
  ) {}

  fail(expected: string): never {
    const at = this.text[this.pos];
    throw parseError(this.what, this.text, at === undefined ? `unexpected end of input expecting ${expected}` : `unexpected "${at}" expecting ${expected}`);
  }

  peek(s: string): boolean {
    return this.text.startsWith(s, this.pos);
  }

  eat(s: string): boolean {
    if (!this.peek(s)) return false;
    this.pos += s.length;
    return true;
  }

  expect(s: string): void {
    if (!this.eat(s)) this.fail(`"${s}"`);
  }

  get done(): boolean {
    return this.pos >= this.text.length;
  }

  /** A double-quoted name or a bare run of name characters ('-' allowed unless it starts '->'). */
  name(expected = 'a name'): string {
    if (this.eat('"')) {
      const end = this.text.indexOf('"', this.pos);
      if (end < 0) this.fail('a closing quote');
      const value = this.text.slice(this.pos, end);
      this.pos = end + 1;
      if (!value) this.fail(expected);
      return value;
    }
    const start = this.pos;
    while (!this.done) {
      const ch = this.text[this.pos];
      if (STOP.has(ch) || /\s/.test(ch)) break;
      if (ch === '-' && this.text[this.pos + 1] === '>') break;
      this.pos++;
    }
    if (this.pos === start) this.fail(expected);
    return this.text.slice(start, this.pos);
  }

  jsonPath(): JsonStep[] {
    const steps: JsonStep[] = [];
    while (this.peek('->')) {
      const arrow = this.eat('->>') ? '->>' : (this.eat('->'), '->');
      steps.push({ arrow, key: this.name('a json key') });
    }
    return steps;
  }
}

export function parseSelect(text: string): SelectItem[] {
  if (text === '') return [{ kind: 'star' }];
  const c = new Cursor(text, 'select parameter');
  const items = parseItems(c, 0);
  if (!c.done) c.fail('"," or end of input');
  return items;
}

function parseItems(c: Cursor, depth: number): SelectItem[] {
  if (depth > 16) c.fail('a shallower select');
  const items: SelectItem[] = [];
  if (depth > 0 && c.peek(')')) return items;
  do {
    items.push(parseItem(c, depth));
  } while (c.eat(','));
  return items;
}

function parseItem(c: Cursor, depth: number): SelectItem {
  if (c.eat('*')) return { kind: 'star' };
  if (c.eat('...')) {
    const name = c.name('a relation to spread');
    return parseEmbed(c, depth, name, undefined, true);
  }
  let name = c.name('a column or relation');
  let alias: string | undefined;
  if (c.peek(':') && !c.peek('::')) {
    c.pos++;
    alias = name;
    if (c.eat('...')) c.fail('a name (spread cannot be aliased)');
    name = c.name('a column or relation');
  }
  if (name === 'count' && c.peek('()')) {
    c.pos += 2;
    return { kind: 'aggregate', fn: 'count', field: null, alias, outCast: parseCast(c) };
  }
  if (c.peek('!') || c.peek('(')) return parseEmbed(c, depth, name, alias, false);
  const json = c.jsonPath();
  const cast = parseCast(c);
  if (c.eat('.')) {
    const fn = AGGREGATES.find((a) => c.peek(`${a}()`));
    if (!fn) c.fail('an aggregate function: avg(), count(), max(), min() or sum()');
    c.pos += fn.length + 2;
    return { kind: 'aggregate', fn, field: { name, json }, alias, cast, outCast: parseCast(c) };
  }
  return { kind: 'field', field: { name, json }, alias, cast };
}

function parseCast(c: Cursor): string | undefined {
  if (!c.eat('::')) return undefined;
  const start = c.pos;
  while (!c.done && /[A-Za-z0-9_[\]]/.test(c.text[c.pos])) c.pos++;
  const cast = c.text.slice(start, c.pos);
  if (!CAST_TYPE.test(cast)) {
    c.pos = start;
    c.fail('a type name');
  }
  return cast;
}

function parseEmbed(c: Cursor, depth: number, name: string, alias: string | undefined, spread: boolean): SelectItem {
  let hint: string | undefined;
  let inner = false;
  while (c.eat('!')) {
    const h = c.name('a hint');
    if (h === 'inner') inner = true;
    else if (h === 'left') inner = false;
    else if (hint === undefined) hint = h;
    else c.fail('"inner" or "left"');
  }
  c.expect('(');
  const children = parseItems(c, depth + 1);
  c.expect(')');
  return { kind: 'embed', name, alias, hint, inner, spread, children: children.length ? children : [] };
}
