// What every feature's api/queries.ts shares: the typed client and the small checks each query needs.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '@/types/database';

/** The SPA's supabase-js client, typed by the generated schema (src/lib/supabase.ts creates it). */
export type DbClient = SupabaseClient<Database>;

/** One page of a server-side list: its rows, and how many rows match in all. */
export interface Page<T> {
  rows: T[];
  total: number;
}

/** The inclusive row range of a 0-based page, for PostgREST's `.range(from, to)`. */
export function pageRange(page: number, pageSize: number): [from: number, to: number] {
  const from = Math.max(0, page) * pageSize;
  return [from, from + pageSize - 1];
}

/** An `ilike` pattern that finds `text` anywhere, with the user's `%`, `_` and `\` taken literally. */
export function containsPattern(text: string): string {
  return `%${text.trim().replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
}

/**
 * The rows an update or delete returned (`.select()` after it). None means the row does not exist or
 * row-level security hid it, which PostgREST does not report as an error: `notFound` says which.
 */
export function expectRows<T>(result: { data: T[] | null; error: unknown }, notFound: string): T[] {
  if (result.error) throw result.error;
  if (!result.data?.length) throw new Error(notFound);
  return result.data;
}
