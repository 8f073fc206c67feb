// Every read and write of materials (SPEC §2 "Materials" and the Materiais tab of the lesson dialog):
// features/materials is their one owner. Files live in bucket `lesson-materials`.
import { containsPattern, expectRows, pageRange, type DbClient, type Page } from '@/platform/db';
import type { Tables } from '@/types/database';
import { materialTypeFromFileName, uniqueObjectName, type MaterialType } from '@/platform/upload';

export type AdminMaterial = Pick<
  Tables<'materials'>,
  'id' | 'title' | 'url' | 'file_path' | 'course_id' | 'lesson_id' | 'created_at'
> & {
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
    .select(
      'id, title, type, url, file_path, course_id, lesson_id, created_at, course:courses!inner(title, school_id)',
      { count: 'exact' },
    )
    .eq('course.school_id', schoolId);
  if (search.trim()) query = query.ilike('title', containsPattern(search));
  const { data, error, count } = await query
    .order('created_at', { ascending: false })
    .order('id')
    .range(...pageRange(page, pageSize));
  if (error) throw error;
  return { rows: (data ?? []) as AdminMaterial[], total: count ?? 0 };
}

/** A lesson's materials, newest first (the Materiais tab of the lesson dialog). */
export type LessonMaterial = Pick<Tables<'materials'>, 'id' | 'title' | 'url' | 'file_path' | 'created_at'> & {
  type: MaterialType;
};

export async function fetchLessonMaterials(client: DbClient, lessonId: string): Promise<LessonMaterial[]> {
  const { data, error } = await client
    .from('materials')
    .select('id, title, type, url, file_path, created_at')
    .eq('lesson_id', lessonId)
    .order('created_at', { ascending: false })
    .order('id');
  if (error) throw error;
  return data as LessonMaterial[];
}

export interface MaterialValues {
  title: string;
  url: string;
  type: MaterialType;
  course_id: string;
}

/** Creates a link material, or updates one (a stored file keeps its file: only links have an editable URL). */
export async function saveMaterial(
  client: DbClient,
  { id, values, isFile }: { id?: string; values: MaterialValues; isFile?: boolean },
): Promise<void> {
  const row = {
    title: values.title.trim(),
    type: values.type,
    course_id: values.course_id,
    ...(isFile ? {} : { url: values.url.trim() }),
  };
  const { error } = id
    ? await client.from('materials').update(row).eq('id', id).select('id').single()
    : await client
        .from('materials')
        .insert({ ...row, url: values.url.trim() })
        .select('id')
        .single();
  if (error) throw error;
}

export interface LessonRef {
  schoolId: string;
  courseId: string;
  lessonId: string;
}

export async function addLessonLink(
  client: DbClient,
  lesson: LessonRef,
  { title, url }: { title: string; url: string },
): Promise<void> {
  const { error } = await client
    .from('materials')
    .insert({
      course_id: lesson.courseId,
      lesson_id: lesson.lessonId,
      title: title.trim(),
      url: url.trim(),
      type: 'LINK',
    });
  if (error) throw error;
}

/** Stores the file under {school}/{course}/{lesson}/ and records it; the file is removed again if the row is refused. */
export async function uploadLessonMaterial(client: DbClient, lesson: LessonRef, file: File): Promise<void> {
  const path = `${lesson.schoolId}/${lesson.courseId}/${lesson.lessonId}/${uniqueObjectName(file.name)}`;
  const bucket = client.storage.from('lesson-materials');
  const up = await bucket.upload(path, file, { contentType: file.type || undefined });
  if (up.error) throw up.error;
  const { error } = await client
    .from('materials')
    .insert({
      course_id: lesson.courseId,
      lesson_id: lesson.lessonId,
      title: file.name,
      file_path: path,
      type: materialTypeFromFileName(file.name),
    });
  if (error) {
    await bucket.remove([path]);
    throw error;
  }
}

/** Deletes the row (refused in pt-BR when RLS hides it), then its stored file. */
export async function deleteMaterial(
  client: DbClient,
  material: { id: string; file_path: string | null },
): Promise<void> {
  expectRows(
    await client.from('materials').delete().eq('id', material.id).select('id'),
    'Material não encontrado ou sem permissão para excluí-lo',
  );
  if (material.file_path) await client.storage.from('lesson-materials').remove([material.file_path]);
}

/** A link to open the material: its URL, or a short-lived signed URL of the stored file. */
export async function materialHref(
  client: DbClient,
  material: { url: string | null; file_path: string | null },
): Promise<string> {
  if (material.url) return material.url;
  const { data, error } = await client.storage.from('lesson-materials').createSignedUrl(material.file_path!, 3600);
  if (error) throw error;
  return data.signedUrl;
}
