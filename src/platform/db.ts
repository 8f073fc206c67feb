// What every feature's api/queries.ts shares: the typed client and the small checks each query needs.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '@/types/database';

type PublicSchema = Database['public'];
type TableName = keyof PublicSchema['Tables'];
/** A table whose `course_id` a BEFORE INSERT trigger derives from the lesson or the quiz (the client may omit it, and a sent one is replaced). */
type CourseFromLesson<T extends TableName> = Omit<PublicSchema['Tables'][T], 'Insert'> & {
  Insert: Omit<PublicSchema['Tables'][T]['Insert'], 'course_id'> & { course_id?: string };
};
type DerivedCourse = 'progress' | 'lesson_ratings' | 'lesson_comments' | 'quizzes' | 'quiz_questions';

/**
 * The generated schema (src/types/database.ts) with what the catalog cannot say: columns that
 * triggers fill (supabase's own docs override generated types the same way).
 */
export type AppDatabase = Omit<Database, 'public'> & {
  public: Omit<PublicSchema, 'Tables'> & {
    Tables: Omit<PublicSchema['Tables'], DerivedCourse> & { [T in DerivedCourse]: CourseFromLesson<T> };
  };
};

/** The SPA's supabase-js client, typed by the schema (src/platform/supabase.ts creates it). */
export type DbClient = SupabaseClient<AppDatabase>;

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

/** Hosted PostgREST answers at most this many rows per request (max_rows); longer reads are paged. */
export const MAX_ROWS = 1000;

/** Every row of a read, MAX_ROWS at a time, for pickers that must offer every option (never a silent cut). */
export async function fetchEveryRow<T>(read: (from: number, to: number) => PromiseLike<{ data: T[] | null; error: unknown }>): Promise<T[]> {
  const rows: T[] = [];
  for (let from = 0; ; from += MAX_ROWS) {
    const { data, error } = await read(from, from + MAX_ROWS - 1);
    if (error) throw error;
    rows.push(...(data ?? []));
    if ((data?.length ?? 0) < MAX_ROWS) return rows;
  }
}
