// The two bits of project configuration the functions runner reads: `verify_jwt` from
// supabase/config.toml, and the functions' secrets from supabase/functions/.env.
import { readFile } from 'node:fs/promises';

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

/**
 * Whether Supabase would verify the JWT before calling this function: true unless the
 * `[functions.<name>]` table of config.toml says `verify_jwt = false`. Only that tiny part of TOML
 * is understood; anything else in the file is ignored.
 */
export function readVerifyJwt(toml: string, name: string): boolean {
  let inTable = false;
  for (const raw of toml.split(/\r?\n/)) {
    const line = stripComment(raw).trim();
    const header = line.match(/^\[([^[\]]+)\]$/);
    if (header) {
      const key = tableKey(header[1]);
      inTable = key.length === 2 && key[0] === 'functions' && key[1] === name;
      continue;
    }
    if (inTable) {
      const setting = line.match(/^verify_jwt\s*=\s*(true|false)$/);
      if (setting) return setting[1] === 'true';
    }
  }
  return true;
}

export async function verifyJwtFor(configTomlPath: string, name: string): Promise<boolean> {
  let toml: string;
  try {
    toml = await readFile(configTomlPath, 'utf8');
  } catch {
    return true; // no config.toml: Supabase's default
  }
  return readVerifyJwt(toml, name);
}

/** KEY=value lines as `supabase secrets set --env-file` reads them (quotes, `export`, comments). */
export function parseDotenv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const m = raw.match(/^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)?\s*$/);
    if (!m) continue;
    let value = (m[2] ?? '').trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) {
      value = value.slice(1, -1).replace(/\\n/g, '\n').replace(/\\"/g, '"');
    } else if (value.startsWith("'") && value.endsWith("'") && value.length >= 2) {
      value = value.slice(1, -1);
    } else {
      value = value.replace(/\s+#.*$/, '');
    }
    out[m[1]] = value;
  }
  return out;
}

export async function readSecrets(envPath: string): Promise<Record<string, string>> {
  try {
    return parseDotenv(await readFile(envPath, 'utf8'));
  } catch {
    return {};
  }
}
