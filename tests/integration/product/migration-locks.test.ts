// Deploy safety (issue 19): a migration that alters, indexes or puts a trigger on an existing table takes
// a lock that blocks the table's reads or writes until the migration's transaction ends. On a large
// project (progress, profiles) a migration waiting behind a long query would queue every request behind
// it. From this batch on, such a migration sets `set local lock_timeout` first, so it fails fast and can
// be retried instead of stalling the site. (Landed migrations are never edited: the rule starts here.)
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitStatements, statementText } from '../../../local-supabase/db/sql-script.ts';

const DIR = path.join(import.meta.dirname, '../../../supabase/migrations');
/** The first migration the rule applies to. */
const SINCE = '20261124000000';
const LOCKING = /^(alter\s+table|create\s+(unique\s+)?index|create\s+(or\s+replace\s+)?(constraint\s+)?trigger|drop\s+index|drop\s+trigger|create\s+policy|alter\s+policy|drop\s+policy)\b/i;
const LOCK_TIMEOUT = /^set\s+local\s+lock_timeout\b/i;

export function lockProblems(sql: string): string | null {
  let guarded = false;
  for (const statement of splitStatements(sql)) {
    const text = statementText(statement).trim();
    if (LOCK_TIMEOUT.test(text)) guarded = true;
    else if (LOCKING.test(text) && !guarded) return text.split('\n')[0]!;
  }
  return null;
}

describe('migrations that lock existing tables set a lock_timeout first', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.sql') && f >= SINCE);
  it.each(files.length ? files : ['(none yet)'])('%s', (file) => {
    if (file === '(none yet)') return;
    expect(lockProblems(readFileSync(path.join(DIR, file), 'utf8'))).toBeNull();
  });

  it('the rule itself: an ALTER TABLE before SET LOCAL lock_timeout is reported, after it is not', () => {
    expect(lockProblems('alter table public.progress add column x int;')).toBe('alter table public.progress add column x int;');
    expect(lockProblems("set local lock_timeout = '5s';\nalter table public.progress add column x int;")).toBeNull();
    expect(lockProblems("set lock_timeout = '5s';\ncreate index on public.profiles (name);")).toMatch(/^create index/);
    expect(lockProblems('create table public.t (id int);')).toBeNull();
  });
});
