// After seed.sql, puts the bytes of the seeded storage objects in place, the way the Supabase CLI's
// `[storage.buckets.*] objects_path` does: every file under supabase/seed-files/<bucket>/<name> is
// uploaded through our own Storage API with the service role.
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Engine } from './db/engine.ts';
import { qualified, quoteIdent } from './rest/ident.ts';

const MIME: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  mp4: 'video/mp4',
  webm: 'video/webm',
  pdf: 'application/pdf',
  csv: 'text/csv',
};

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)])),
  );
  return nested.flat();
}

export async function uploadSeedFiles(baseUrl: string, serviceRoleKey: string, supabaseDir: string): Promise<number> {
  const root = path.join(supabaseDir, 'seed-files');
  const files = await filesUnder(root);
  for (const file of files) {
    const [bucket, ...rest] = path.relative(root, file).split(path.sep);
    const name = rest.join('/');
    const ext = name.split('.').pop()?.toLowerCase() ?? '';
    const res = await fetch(`${baseUrl}/storage/v1/object/${bucket}/${name.split('/').map(encodeURIComponent).join('/')}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${serviceRoleKey}`,
        apikey: serviceRoleKey,
        'Content-Type': MIME[ext] ?? 'application/octet-stream',
        'x-upsert': 'true',
      },
      body: await readFile(file),
    });
    if (!res.ok) throw new Error(`seed file ${bucket}/${name}: ${res.status} ${await res.text()}`);
  }
  return files.length;
}

/**
 * seed.sql writes public URLs for the standard local port (as `supabase start` serves them). When this
 * server runs elsewhere (tests pick free ports), point the seeded *_url columns at this server.
 */
export async function rebaseSeededUrls(engine: Engine, baseUrl: string): Promise<void> {
  const standard = 'http://localhost:54321';
  if (baseUrl === standard) return;
  const cols = await engine.query<{ table_name: string; column_name: string }>(
    `select table_name, column_name from information_schema.columns
      where table_schema = 'public' and column_name like '%\\_url' and data_type = 'text'
        and table_name in (select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE')`,
  );
  for (const { table_name, column_name } of cols.rows) {
    const t = qualified('public', table_name);
    const c = quoteIdent(column_name);
    await engine.query(`update ${t} set ${c} = replace(${c}, $1, $2) where ${c} like $3`, [standard, baseUrl, standard + '%']);
  }
}
