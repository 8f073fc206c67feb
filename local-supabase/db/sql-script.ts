// Splitting a SQL script into its statements (quotes, dollar quotes and comments respected), so the
// migration runner can give the few statements the platform allows on its own schemas their
// allowance, and run everything else with the migration role's privileges.

/** The statements of `script`, each with its trailing semicolon, comments kept. */
export function splitStatements(script: string): string[] {
  const out: string[] = [];
  let start = 0;
  let i = 0;
  const n = script.length;
  while (i < n) {
    const c = script[i]!;
    const next = script[i + 1];
    if (c === '-' && next === '-') {
      const end = script.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
    } else if (c === '/' && next === '*') {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (script[i] === '/' && script[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (script[i] === '*' && script[i + 1] === '/') {
          depth--;
          i += 2;
        } else i++;
      }
    } else if (c === "'" || c === '"') {
      // E'...' strings take backslash escapes; every other string doubles its quote.
      const backslashes = c === "'" && /[eE]/.test(script[i - 1] ?? '') && !/[\w$]/.test(script[i - 2] ?? '');
      i++;
      while (i < n) {
        if (backslashes && script[i] === '\\') i += 2;
        else if (script[i] === c && script[i + 1] === c) i += 2;
        else if (script[i] === c) break;
        else i++;
      }
      i++;
    } else if (c === '$' && !/[\w$]/.test(script[i - 1] ?? '')) {
      const tag = /^\$([A-Za-z_][\w]*)?\$/.exec(script.slice(i, i + 64))?.[0];
      if (tag) {
        const end = script.indexOf(tag, i + tag.length);
        i = end < 0 ? n : end + tag.length;
      } else i++;
    } else if (c === ';') {
      out.push(script.slice(start, i + 1));
      i++;
      start = i;
    } else i++;
  }
  if (script.slice(start).replace(/--[^\n]*|\/\*[\s\S]*?\*\/|\s/g, '')) out.push(script.slice(start));
  return out;
}

/** The statement without leading comments and blank lines. */
export function statementText(statement: string): string {
  return statement.replace(/^(\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)*/, '');
}
