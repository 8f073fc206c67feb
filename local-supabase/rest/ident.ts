// SQL identifier quoting. Every table, column and function name reaches SQL only through these,
// after it has been checked against the schema cache.

export function quoteIdent(name: string): string {
  if (name.includes('\u0000')) throw new Error('identifier contains a NUL byte');
  return '"' + name.replaceAll('"', '""') + '"';
}

export function qualified(schema: string, name: string): string {
  return quoteIdent(schema) + '.' + quoteIdent(name);
}

/** Casts in `select=col::type` are written unquoted, so only plain type names are accepted. */
export const CAST_TYPE = /^[A-Za-z_][A-Za-z0-9_]*(\[\])?$/;
