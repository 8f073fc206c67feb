// Staff side of courses (SPEC §2 "Courses list" / "Course form") as plain functions over a typed
// supabase-js client (hooks, tests, benches): list, read, save, publish toggle and delete. Row-level
// security limits every call to the staff's own school.
import { containsPattern, expectRows, fetchEveryRow, pageRange, type DbClient, type Page } from '@/platform/db';
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
  /** The course has an order bump now (the form read it): it is updated or deleted, not inserted. */
  hadBump?: boolean;
}

/** A new course was created but its order bump was refused: the form goes on editing that course. */
export class CourseCreatedError extends Error {
  constructor(
    readonly course: CourseRow,
    reason: unknown,
  ) {
    super(reason instanceof Error ? reason.message : String(reason), { cause: reason });
    // What describeError reads (src/platform/errors.ts): the database's code and details, as refused.
    const { code, details, status } = (reason ?? {}) as { code?: unknown; details?: unknown; status?: unknown };
    Object.assign(this, { code, details, status });
  }
}

/** Updates the course `id`, or creates one in the school when there is none; then its order bump. */
export async function saveCourse(client: DbClient, { id, schoolId, instructorId, values, hadBump = false }: SaveCourseInput): Promise<CourseRow> {
  const row = courseRowFromForm(values);
  if (id) {
    const { data, error } = await client.from('courses').update(row).eq('id', id).select('*').single();
    if (error) throw error;
    await saveCourseBump(client, data.id, values, hadBump);
    return data;
  }
  const insert: TablesInsert<'courses'> = { ...row, school_id: schoolId, instructor_id: instructorId };
  const { data, error } = await client.from('courses').insert(insert).select('*').single();
  if (error) throw error;
  try {
    await saveCourseBump(client, data.id, values, false);
  } catch (e) {
    throw new CourseCreatedError(data, e);
  }
  return data;
}

/** The course's order bump (course_bumps: one per course), or null. */
export type CourseBump = Pick<Tables<'course_bumps'>, 'bump_course_id' | 'price'>;

export async function fetchCourseBump(client: DbClient, courseId: string): Promise<CourseBump | null> {
  const { data, error } = await client.from('course_bumps').select('bump_course_id, price').eq('course_id', courseId).maybeSingle();
  if (error) throw error;
  return data && { bump_course_id: data.bump_course_id, price: Number(data.price) };
}

/**
 * Offers the form's course at its special price on this course's checkout, or stops offering one.
 * An existing offer is updated in place (staff may update only the offered course and its price).
 */
async function saveCourseBump(client: DbClient, courseId: string, values: CourseFormValues, hadBump: boolean): Promise<void> {
  if (!values.bump_enabled) {
    if (!hadBump) return;
    const { error } = await client.from('course_bumps').delete().eq('course_id', courseId);
    if (error) throw error;
    return;
  }
  const offer = { bump_course_id: values.bump_course_id, price: parsePrice(values.bump_price) };
  if (hadBump) {
    const { data, error } = await client.from('course_bumps').update(offer).eq('course_id', courseId).select('course_id');
    if (error) throw error;
    if (data.length) return;
  }
  const { error } = await client.from('course_bumps').insert({ course_id: courseId, ...offer });
  if (error) throw error;
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
