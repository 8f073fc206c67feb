// Materials of a school's courses for the staff's Materials screen (SPEC §2), newest first, with the
// course title; one request.
import { containsPattern, pageRange, type DbClient, type Page } from '@/lib/db';
import type { Tables } from '@/types/database';
import type { MaterialType } from '@/lib/upload';

export type AdminMaterial = Pick<Tables<'materials'>, 'id' | 'title' | 'url' | 'file_path' | 'course_id' | 'lesson_id' | 'created_at'> & {
  type: MaterialType;
  course: { title: string; school_id: string } | null;
};

export const MATERIALS_PAGE_SIZE = 24;

/** One page of the school's materials, newest first; `search` filters by title. */
export async function fetchSchoolMaterials(
  client: DbClient,
  schoolId: string,
  { search = '', page = 0, pageSize = MATERIALS_PAGE_SIZE }: { search?: string; page?: number; pageSize?: number } = {},
): Promise<Page<AdminMaterial>> {
  let query = client
    .from('materials')
    .select('id, title, type, url, file_path, course_id, lesson_id, created_at, course:courses!inner(title, school_id)', { count: 'exact' })
    .eq('course.school_id', schoolId);
  if (search.trim()) query = query.ilike('title', containsPattern(search));
  const { data, error, count } = await query.order('created_at', { ascending: false }).order('id').range(...pageRange(page, pageSize));
  if (error) throw error;
  return { rows: (data ?? []) as AdminMaterial[], total: count ?? 0 };
}
