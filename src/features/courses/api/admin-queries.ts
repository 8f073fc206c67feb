// Staff side of courses (SPEC §2 "Courses list" / "Course form") as plain functions over a typed
// supabase-js client (hooks, tests, benches): list, read, save, publish toggle and delete. Row-level
// security limits every call to the staff's own school.
import { containsPattern, expectRows, fetchEveryRow, pageRange, type DbClient, type Page } from '@/lib/db';
import type { Tables, TablesInsert } from '@/types/database';
import { parsePrice, type CourseFormValues, type CourseStatus } from '../schemas';

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

export async function fetchCourse(client: DbClient, courseId: string): Promise<CourseRow | null> {
  const { data, error } = await client.from('courses').select('*').eq('id', courseId).maybeSingle();
  if (error) throw error;
  return data;
}

/** The database row of the form's values. */
export function courseRowFromForm(values: CourseFormValues) {
  return {
    title: values.title,
    slug: values.slug,
    description: values.description.trim() || null,
    purchase_url: values.purchase_url || null,
    price: parsePrice(values.price),
    max_installments: values.max_installments,
    status: values.status,
    total_lessons: values.total_lessons,
    thumbnail_url: values.thumbnail_url || null,
    thumbnail_position: values.thumbnail_position,
    banner_url: values.banner_url || null,
    banner_position: values.banner_position,
    certificate_enabled: values.certificate_enabled,
  };
}

export interface SaveCourseInput {
  id?: string;
  schoolId: string;
  instructorId: string;
  values: CourseFormValues;
}

/** Updates the course `id`, or creates one in the school when there is none. */
export async function saveCourse(client: DbClient, { id, schoolId, instructorId, values }: SaveCourseInput): Promise<CourseRow> {
  const row = courseRowFromForm(values);
  if (id) {
    const { data, error } = await client.from('courses').update(row).eq('id', id).select('*').single();
    if (error) throw error;
    return data;
  }
  const insert: TablesInsert<'courses'> = { ...row, school_id: schoolId, instructor_id: instructorId };
  const { data, error } = await client.from('courses').insert(insert).select('*').single();
  if (error) throw error;
  return data;
}

/** SPEC §4 list toggle: DRAFT becomes PUBLISHED, any other status becomes DRAFT. */
export function toggledStatus(status: CourseStatus): CourseStatus {
  return status === 'DRAFT' ? 'PUBLISHED' : 'DRAFT';
}

export async function toggleCourseStatus(client: DbClient, course: Pick<AdminCourse, 'id' | 'status'>): Promise<void> {
  const { error } = await client.from('courses').update({ status: toggledStatus(course.status) }).eq('id', course.id).select('id').single();
  if (error) throw error;
}

export async function deleteCourse(client: DbClient, courseId: string): Promise<void> {
  expectRows(await client.from('courses').delete().eq('id', courseId).select('id'), 'Curso não encontrado ou sem permissão para excluí-lo');
}
