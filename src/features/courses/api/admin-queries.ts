// Staff side of courses: the admin list as a plain function over a supabase-js client (tests, benches).
import type { DbClient } from '@/lib/db';
import type { Tables } from '@/types/database';
import type { CourseStatus } from '../admin-schemas';

export type AdminCourse = Pick<
  Tables<'courses'>,
  'id' | 'title' | 'slug' | 'thumbnail_url' | 'thumbnail_position' | 'price' | 'max_installments' | 'created_at' | 'total_lessons'
> & { status: CourseStatus };

export type CourseRow = Tables<'courses'>;

const LIST_COLUMNS = 'id, title, slug, status, thumbnail_url, thumbnail_position, price, max_installments, total_lessons, created_at';

/** The school's courses, newest first; `search` filters by title (server side, case-insensitive). */
export async function fetchAdminCourses(client: DbClient, schoolId: string, search = ''): Promise<AdminCourse[]> {
  let query = client.from('courses').select(LIST_COLUMNS).eq('school_id', schoolId).order('created_at', { ascending: false }).limit(500);
  const q = search.trim();
  if (q) query = query.ilike('title', `%${q.replace(/[%_\\]/g, (c) => `\\${c}`)}%`);
  const { data, error } = await query;
  if (error) throw error;
  return (data ?? []) as AdminCourse[];
}
