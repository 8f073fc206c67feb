// `npm run gen:types`: migrates a fresh in-memory database from supabase/migrations and writes
// src/types/database.ts from its catalog, in the shape of `supabase gen types typescript`.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { openDatabase } from '../local-supabase/db/open.ts';
import { readCatalog } from '../local-supabase/rest/catalog.ts';
import { generateTypes, readColumnChecks } from './typegen.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
export const TYPES_FILE = path.join(ROOT, 'src', 'types', 'database.ts');

async function main() {
  // No seed: the types depend on the schema only.
  const { engine } = await openDatabase({ dataDir: null, databaseUrl: null, rootDir: ROOT, seed: false });
  try {
    const source = generateTypes(await readCatalog(engine), await readColumnChecks(engine));
    await writeFile(TYPES_FILE, source);
    console.log(`wrote ${path.relative(ROOT, TYPES_FILE)}`);
  } finally {
    await engine.close();
  }
}

await main();
