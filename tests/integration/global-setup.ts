// Migrates and seeds one database for the whole integration run, so each test file can start its own
// local-supabase from a copy in a second instead of replaying every migration.
// PGlite: a data-dir tarball. Real PostgreSQL (DATABASE_URL): a template database.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../local-supabase/db/open.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite mode: path of the migrated+seeded snapshot tarball. */
    snapshotPath: string;
    /** Postgres mode: name of the migrated+seeded template database. */
    templateDb: string;
  }
}

const ROOT = path.resolve(import.meta.dirname, '../..');
// One template per run (and dropped after it), so two runs on one PostgreSQL server do not drop each other's.
const TEMPLATE_DB = `local_supabase_test_template_${process.pid}`;

export default async function setup(project: TestProject) {
  const databaseUrl = process.env.DATABASE_URL || null;
  if (databaseUrl) {
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${TEMPLATE_DB} with (force)`);
    await admin.query(`create database ${TEMPLATE_DB}`);
    await admin.end();
    const { engine } = await openDatabase({ dataDir: null, databaseUrl: withDb(databaseUrl, TEMPLATE_DB), rootDir: ROOT });
    await engine.close();
    project.provide('templateDb', TEMPLATE_DB);
    project.provide('snapshotPath', '');
    return async () => {
      const c = new pg.Client({ connectionString: databaseUrl });
      await c.connect();
      await c.query(`drop database if exists ${TEMPLATE_DB} with (force)`);
      await c.end();
    };
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'ls-snapshot-'));
  const { engine } = await openDatabase({ dataDir: null, databaseUrl: null, rootDir: ROOT });
  const blob = await (engine as unknown as { dump(): Promise<Blob> }).dump();
  await engine.close();
  const file = path.join(dir, 'snapshot.tar');
  await writeFile(file, Buffer.from(await blob.arrayBuffer()));
  project.provide('snapshotPath', file);
  project.provide('templateDb', '');
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}

export function withDb(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = '/' + db;
  return u.toString();
}
