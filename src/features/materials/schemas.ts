// The materials forms (SPEC §2 "Materials", §5): the Materiais screen's material, and the link of a
// lesson's Materiais tab.
import { z } from '@/platform/zod';
import { Constants } from '@/types/database';

const HTTP_URL = /^https?:\/\/\S+$/i;
const URL_MESSAGE = 'Informe uma URL válida (https://...)';

/** The Materiais screen's form; a stored file keeps its file (no URL to edit). */
export const materialSchema = (isFile: boolean) =>
  z.object({
    title: z.string().trim().min(1, 'Título é obrigatório').max(200, 'Máximo de 200 caracteres'),
    url: isFile ? z.string() : z.string().trim().min(1, 'URL é obrigatória').regex(HTTP_URL, URL_MESSAGE),
    type: z.enum(Constants.public.Checks.materials.type),
    course_id: z.string().min(1, 'Selecione o curso'),
  });
export type MaterialFormValues = z.infer<ReturnType<typeof materialSchema>>;

/** A link of a lesson: both fields, one message when either is missing (SPEC §5). */
export const lessonLinkSchema = z.object({ title: z.string().trim(), url: z.string().trim() }).superRefine((v, ctx) => {
  if (!v.title || !v.url) ctx.addIssue({ code: 'custom', path: ['url'], message: 'Preencha o título e URL do link' });
  else if (!HTTP_URL.test(v.url)) ctx.addIssue({ code: 'custom', path: ['url'], message: URL_MESSAGE });
});
export type LessonLinkValues = z.infer<typeof lessonLinkSchema>;
