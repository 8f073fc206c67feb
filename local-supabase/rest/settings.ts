// What the PostgREST of the platform is configured with, for /rest/v1: the schemas exposed
// (`[api] schemas` of supabase/config.toml, the first is the default) and db-aggregates-enabled,
// which Supabase leaves off and config.toml has no key for (a test may switch it on).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ServerContext } from '../http.ts';
import { readTomlStringArray } from '../toml.ts';

export interface RestSettings {
  schemas: string[];
  aggregatesEnabled: boolean;
}

const settings = new WeakMap<ServerContext, RestSettings>();

export function restSettings(ctx: ServerContext): RestSettings {
  let s = settings.get(ctx);
  if (!s) {
    let toml = '';
    try {
      toml = readFileSync(path.join(ctx.config.rootDir, 'supabase', 'config.toml'), 'utf8');
    } catch {
      // no config.toml: the CLI's defaults
    }
    const schemas = readTomlStringArray(toml, ['api'], 'schemas') ?? ['public', 'graphql_public'];
    s = { schemas: schemas.length ? schemas : ['public'], aggregatesEnabled: false };
    settings.set(ctx, s);
  }
  return s;
}
