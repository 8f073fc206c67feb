// Staff side of courses: the admin list as a plain function over a supabase-js client (tests, benches).
import { containsPattern, fetchEveryRow, pageRange, type DbClient, type Page } from '@/lib/db';
import type { Tables } from '@/types/database';
import type { CourseStatus } from '../admin-schemas';

export type AdminCourse = Pick<
  Tables<'courses'>,
  'id' | 'title' | 'slug' | 'thumbnail_url' | 'thumbnail_position' | 'price' | 'max_installments' | 'created_at' | 'total_lessons'
> & { status: CourseStatus };

export type CourseRow = Tables<'courses'>;

const LIST_COLUMNS = 'id, title, slug, status, thumbnail_url, thumbnail_position, price, max_installments, total_lessons, created_at';

export const ADMIN_COURSES_PAGE_SIZE = 24;

/** One page of the school's courses, newest first; `search` filters by title (server side, case-insensitive). */
export async function fetchAdminCourses(
  client: DbClient,
  schoolId: string,
  { search = '', page = 0, pageSize = ADMIN_COURSES_PAGE_SIZE }: { search?: string; page?: number; pageSize?: number } = {},
): Promise<Page<AdminCourse>> {
  let query = client.from('courses').select(LIST_COLUMNS, { count: 'exact' }).eq('school_id', schoolId);
  if (search.trim()) query = query.ilike('title', containsPattern(search));
  const { data, error, count } = await query.order('created_at', { ascending: false }).order('id').range(...pageRange(page, pageSize));
  if (error) throw error;
  return { rows: (data ?? []) as AdminCourse[], total: count ?? 0 };
}

/** Every course of the school, by title, for the course pickers of other screens. */
export function fetchCourseOptions(client: DbClient, schoolId: string): Promise<AdminCourse[]> {
  return fetchEveryRow((from, to) => client.from('courses').select(LIST_COLUMNS).eq('school_id', schoolId).order('title').order('id').range(from, to)) as Promise<AdminCourse[]>;
}
