// `npm run gen:schema-doc`: migrates a fresh in-memory database from supabase/migrations and writes
// docs/schema.md from its catalog (scripts/schema-doc.ts).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { openDatabase } from '../local-supabase/db/open.ts';
import { renderSchemaDoc } from './schema-doc.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const DOC = path.join(ROOT, 'docs', 'schema.md');

// No seed: the document depends on the schema only.
const { engine } = await openDatabase({ dataDir: null, databaseUrl: null, rootDir: ROOT, seed: false });
try {
  await writeFile(DOC, await renderSchemaDoc(engine));
  console.log(`wrote ${path.relative(ROOT, DOC)}`);
} finally {
  await engine.close();
}
