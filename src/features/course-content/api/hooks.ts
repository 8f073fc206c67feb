// TanStack Query hooks of the content editor: the outline, a lesson with its contents and materials,
// and every write with the SPEC §8 toasts.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/lib/toast';
import type { ReleaseMode } from '@/lib/release';
import { supabase } from '@/lib/supabase';
import { materialTypeFromFileName, uniqueObjectName, type MaterialType } from '@/lib/upload';
import { errorMessage } from '@/lib/utils';
import { fetchCourseContent, fetchLessonForEdit, reorderCourseContent, type EditorModule, type LessonVideoType } from './queries';
import { rootKeys } from '@/lib/query-keys';
import { expectRows } from '@/lib/db';

export const contentKeys = {
  all: rootKeys.courseContent,
  course: (courseId: string) => [...rootKeys.courseContent, 'course', courseId] as const,
  lesson: (lessonId: string) => [...rootKeys.courseContent, 'lesson', lessonId] as const,
};

export const courseContentQuery = (courseId: string) =>
  queryOptions({ queryKey: contentKeys.course(courseId), queryFn: () => fetchCourseContent(supabase, courseId) });

export function useCourseContent(courseId: string) {
  return useQuery(courseContentQuery(courseId));
}

export function useLessonForEdit(lessonId: string | null) {
  return useQuery({ queryKey: contentKeys.lesson(lessonId ?? ''), queryFn: () => fetchLessonForEdit(supabase, lessonId!), enabled: !!lessonId });
}

/** Refreshes the editor and the student pages' cached course data after a change. */
function useInvalidateContent(courseId: string) {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: contentKeys.all }), queryClient.invalidateQueries({ queryKey: rootKeys.courses }), queryClient.invalidateQueries({ queryKey: rootKeys.lessons })]).then(() => courseId);
}

export interface ModuleValues {
  title: string;
  description: string;
  thumbnail_url: string | null;
  /** Drip release: days only with AFTER_ENROLLMENT, a date ('aaaa-mm-dd') only with ON_DATE. */
  release_mode: ReleaseMode;
  release_after_days: number | null;
  release_on: string | null;
}

export function useSaveModule(courseId: string) {
  const invalidate = useInvalidateContent(courseId);
  return useMutation({
    mutationFn: async ({ id, values, orderIndex }: { id?: string; values: ModuleValues; orderIndex: number }) => {
      const row = {
        title: values.title.trim(),
        description: values.description.trim() || null,
        thumbnail_url: values.thumbnail_url || null,
        release_mode: values.release_mode,
        release_after_days: values.release_mode === 'AFTER_ENROLLMENT' ? values.release_after_days : null,
        release_on: values.release_mode === 'ON_DATE' ? values.release_on : null,
      };
      const q = id
        ? supabase.from('modules').update(row).eq('id', id).select('id').single()
        : supabase.from('modules').insert({ ...row, course_id: courseId, order_index: orderIndex }).select('id').single();
      const { error } = await q;
      if (error) throw error;
    },
    onSuccess: (_data, { id }) => {
      void invalidate();
      toast.success(id ? 'Módulo atualizado!' : 'Módulo criado!');
    },
    meta: { errorTitle: 'Erro ao salvar módulo' },
  });
}

export interface LessonValues {
  title: string;
  content: string;
  is_preview: boolean;
  video_type: LessonVideoType;
  /** youtube/vimeo page URL, or the stored object path of an uploaded video. */
  video_url: string | null;
  duration_sec: number;
}

/** Saves the lesson row and its contents; returns the lesson id (a new lesson gets one here). */
export async function saveLesson({ id, courseId, moduleId, orderIndex, values }: { id?: string; courseId: string; moduleId: string; orderIndex: number; values: LessonValues }): Promise<string> {
  const row = { title: values.title.trim(), is_preview: values.is_preview, video_type: values.video_type, duration_sec: values.duration_sec };
  const saved = id
    ? await supabase.from('lessons').update(row).eq('id', id).select('id').single()
    : // course_id is taken from the module by a trigger; sent only to satisfy the row type.
      await supabase.from('lessons').insert({ ...row, module_id: moduleId, course_id: courseId, order_index: orderIndex }).select('id').single();
  if (saved.error) throw saved.error;
  const lessonId = saved.data.id;
  // Choosing "none" clears the URL (SPEC §4).
  const videoUrl = values.video_type === 'none' ? null : values.video_url;
  const contents = await supabase.from('lesson_contents').update({ content: values.content || null, video_url: videoUrl }).eq('lesson_id', lessonId).select('lesson_id').single();
  if (contents.error) throw contents.error;
  return lessonId;
}

/** After an upload: the lesson plays the stored object. */
export async function attachUploadedVideo(lessonId: string, path: string): Promise<void> {
  const c = await supabase.from('lesson_contents').update({ video_url: path }).eq('lesson_id', lessonId).select('lesson_id').single();
  if (c.error) throw c.error;
  const l = await supabase.from('lessons').update({ video_type: 'upload' }).eq('id', lessonId).select('id').single();
  if (l.error) throw l.error;
}

export function useInvalidateCourseContent(courseId: string) {
  return useInvalidateContent(courseId);
}

export function useDeleteContent(courseId: string) {
  const invalidate = useInvalidateContent(courseId);
  return useMutation({
    mutationFn: async ({ table, id }: { table: 'modules' | 'lessons'; id: string }) => {
      expectRows(await supabase.from(table).delete().eq('id', id).select('id'), 'Item não encontrado ou sem permissão para excluí-lo');
    },
    onSuccess: (_d, { table }) => {
      void invalidate();
      toast.success(table === 'modules' ? 'Módulo excluído!' : 'Aula excluída!');
    },
    meta: { errorTitle: 'Erro ao excluir' },
  });
}

/** Saves a new order in one request; the outline is shown in its new order at once and restored on failure. */
export function useReorderContent(courseId: string) {
  const queryClient = useQueryClient();
  const key = contentKeys.course(courseId);
  return useMutation({
    mutationFn: (modules: EditorModule[]) => reorderCourseContent(supabase, courseId, modules.map((m) => ({ id: m.id, lessons: m.lessons.map((l) => l.id) }))),
    onMutate: async (modules) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Awaited<ReturnType<typeof fetchCourseContent>>>(key);
      if (previous) queryClient.setQueryData(key, { ...previous, modules });
      return { previous };
    },
    onError: (error, _m, ctx) => {
      if (ctx?.previous) queryClient.setQueryData(key, ctx.previous);
      toast.error('Erro ao salvar a nova ordem', { description: errorMessage(error) });
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: key });
      void queryClient.invalidateQueries({ queryKey: rootKeys.courses });
    },
  });
}

// ── Materials of a lesson ────────────────────────────────────────────────────────────────────

export function useAddMaterial(courseId: string, schoolId: string, lessonId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { kind: 'file'; file: File } | { kind: 'link'; title: string; url: string }) => {
      if (input.kind === 'link') {
        const { error } = await supabase.from('materials').insert({ course_id: courseId, lesson_id: lessonId, title: input.title.trim(), url: input.url.trim(), type: 'LINK' });
        if (error) throw error;
        return;
      }
      const path = `${schoolId}/${courseId}/${lessonId}/${uniqueObjectName(input.file.name)}`;
      const bucket = supabase.storage.from('lesson-materials');
      const up = await bucket.upload(path, input.file, { contentType: input.file.type || undefined });
      if (up.error) throw up.error;
      const type: MaterialType = materialTypeFromFileName(input.file.name);
      const { error } = await supabase.from('materials').insert({ course_id: courseId, lesson_id: lessonId, title: input.file.name, file_path: path, type });
      if (error) {
        await bucket.remove([path]);
        throw error;
      }
    },
    onSuccess: (_d, input) => {
      void queryClient.invalidateQueries({ queryKey: contentKeys.lesson(lessonId) });
      void queryClient.invalidateQueries({ queryKey: rootKeys.materials });
      toast.success(input.kind === 'link' ? 'Link adicionado!' : 'Material enviado!');
    },
    onError: (error, input) => toast.error(input.kind === 'link' ? `Erro ao adicionar link: ${errorMessage(error)}` : `Erro ao enviar material: ${errorMessage(error)}`),
  });
}

export function useRemoveMaterial(lessonId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (material: { id: string; file_path: string | null }) => {
      expectRows(await supabase.from('materials').delete().eq('id', material.id).select('id'), 'Material não encontrado');
      if (material.file_path) await supabase.storage.from('lesson-materials').remove([material.file_path]);
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: contentKeys.lesson(lessonId) });
      void queryClient.invalidateQueries({ queryKey: rootKeys.materials });
      toast.success('Material removido!');
    },
    onError: (error) => toast.error(`Erro ao remover material: ${errorMessage(error)}`),
  });
}
