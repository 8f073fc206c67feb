// SQL identifier quoting. Every table, column and function name reaches SQL only through these,
// after it has been checked against the schema cache.

import { HttpError } from '../http.ts';

/** What PostgREST relays from PostgreSQL for a NUL byte in a name: no identifier can hold one. */
const nulByte = () =>
  new HttpError(400, { code: '22021', details: null, hint: null, message: 'invalid byte sequence for encoding "UTF8": 0x00' });

export function quoteIdent(name: string): string {
  if (name.includes('\u0000')) throw nulByte();
  return '"' + name.replaceAll('"', '""') + '"';
}

export function qualified(schema: string, name: string): string {
  return quoteIdent(schema) + '.' + quoteIdent(name);
}

/** Casts in `select=col::type` are written unquoted, so only plain type names are accepted. */
export const CAST_TYPE = /^[A-Za-z_][A-Za-z0-9_]*(\[\])?$/;
