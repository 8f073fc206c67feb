// Materials of a school's courses for the staff's Materials screen (SPEC §2), newest first, with the
// course title; one request.
import type { DbClient } from '@/lib/db';
import type { Tables } from '@/types/database';
import type { MaterialType } from '@/lib/upload';

export type AdminMaterial = Pick<Tables<'materials'>, 'id' | 'title' | 'url' | 'file_path' | 'course_id' | 'lesson_id' | 'created_at'> & {
  type: MaterialType;
  course: { title: string; school_id: string } | null;
};

export async function fetchSchoolMaterials(client: DbClient, schoolId: string): Promise<AdminMaterial[]> {
  const { data, error } = await client
    .from('materials')
    .select('id, title, type, url, file_path, course_id, lesson_id, created_at, course:courses!inner(title, school_id)')
    .eq('course.school_id', schoolId)
    .order('created_at', { ascending: false })
    .limit(1000);
  if (error) throw error;
  return (data ?? []) as AdminMaterial[];
}
