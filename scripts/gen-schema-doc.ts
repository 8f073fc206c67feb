// `npm run gen:schema-doc`: migrates a fresh in-memory database from supabase/migrations and writes, from
// its catalog, the generated views of today's schema: docs/schema.md (scripts/schema-doc.ts),
// supabase/schemas/<area>.sql and docs/data-model.md's overview of the areas (scripts/schema-sql.ts).
// Tests fail when any of them is out of date.
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { openDatabase } from '../local-supabase/db/open.ts';
import { renderSchemaDoc } from './schema-doc.ts';
import { renderDataModelOverview, renderSchemaFiles, withDataModelOverview } from './schema-sql.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const DOC = path.join(ROOT, 'docs', 'schema.md');
const SCHEMAS = path.join(ROOT, 'supabase', 'schemas');
const DATA_MODEL = path.join(ROOT, 'docs', 'data-model.md');

// No seed: the views depend on the schema only.
const { engine } = await openDatabase({ dataDir: null, databaseUrl: null, rootDir: ROOT, seed: false });
try {
  await writeFile(DOC, await renderSchemaDoc(engine));
  console.log(`wrote ${path.relative(ROOT, DOC)}`);
  const files = await renderSchemaFiles(engine);
  await mkdir(SCHEMAS, { recursive: true });
  // An area that no longer exists leaves no file behind.
  for (const name of await readdir(SCHEMAS)) {
    if (name.endsWith('.sql') && !files.has(name.slice(0, -4))) await rm(path.join(SCHEMAS, name));
  }
  for (const [area, text] of files) await writeFile(path.join(SCHEMAS, `${area}.sql`), text);
  console.log(`wrote ${path.relative(ROOT, SCHEMAS)}/{${[...files.keys()].join(',')}}.sql`);
  await writeFile(DATA_MODEL, withDataModelOverview(await readFile(DATA_MODEL, 'utf8'), await renderDataModelOverview(engine)));
  console.log(`wrote ${path.relative(ROOT, DATA_MODEL)} (its overview of the areas)`);
} finally {
  await engine.close();
}
