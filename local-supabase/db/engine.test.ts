// The one-round-trip statements inline their text parameters: only real placeholders change, and
// every value stays a single, closed literal whatever it holds.
import { describe, expect, it } from 'vitest';
import { inlineParams, settingsSql, textLiteral } from './engine.ts';

describe('inlineParams', () => {
  it('replaces each $n::text with its value as a literal', () => {
    expect(inlineParams({ text: 'select * from t where a = $1::text and b = $2::text', params: ['x', null] })).toBe(
      "select * from t where a = 'x'::text and b = NULL::text",
    );
    expect(inlineParams({ text: 'select $10::text, $1::text', params: ['a', '', '', '', '', '', '', '', '', 'j'] })).toBe("select 'j'::text, 'a'::text");
  });

  it('leaves dollar signs inside literals and quoted identifiers alone', () => {
    expect(inlineParams({ text: `select '$1', "col$1", 'it''s $1', $1::text`, params: ['v'] })).toBe(`select '$1', "col$1", 'it''s $1', 'v'::text`);
  });

  it('keeps hostile values inside one literal', () => {
    const hostile = `'); drop table public.courses; --`;
    const sql = inlineParams({ text: 'select $1::text', params: [hostile] });
    expect(sql).toBe(`select '''); drop table public.courses; --'::text`);
    expect(textLiteral(`a\\'b`)).toBe(`'a\\''b'`); // backslashes are ordinary characters
  });

  it('refuses a NUL byte as PostgreSQL refuses it in a text parameter, and a missing parameter', () => {
    expect(() => textLiteral('a\0b')).toThrow(expect.objectContaining({ code: '22021' }));
    expect(() => inlineParams({ text: 'select $2::text', params: ['a'] })).toThrow('no value for parameter $2');
  });

  it('writes request settings as set_config calls', () => {
    expect(settingsSql({ role: 'anon', 'request.path': "/x'y" })).toBe(`select set_config('role', 'anon', true), set_config('request.path', '/x''y', true)`);
  });
});
