// The two bits of project configuration the functions runner reads: `verify_jwt` from
// supabase/config.toml, and the functions' secrets from supabase/functions/.env.
import { readFile } from 'node:fs/promises';
import { readTomlTable } from '../toml.ts';

/**
 * Whether Supabase would verify the JWT before calling this function: true unless the
 * `[functions.<name>]` table of config.toml says `verify_jwt = false`.
 */
export function readVerifyJwt(toml: string, name: string): boolean {
  return readTomlTable(toml, ['functions', name]).verify_jwt !== false;
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
