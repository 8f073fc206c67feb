// The content editor's forms (SPEC §2 "Course content", §5): a module (with its drip release) and a
// lesson (with its video source, checked by the one rule of src/concepts/video-source.ts).
import { z } from '@/platform/zod';
import { checkVideoSource, videoSourceFields } from '@/concepts/video-source';
import { Constants } from '@/types/database';

// Drip release: the same limits as the database's checks on public.modules.
export const moduleSchema = z
  .object({
    title: z.string().trim().min(1, 'Título é obrigatório').max(200, 'Máximo de 200 caracteres'),
    description: z.string().max(5000, 'Máximo de 5.000 caracteres'),
    thumbnail_url: z.string().nullable(),
    release_mode: z.enum(Constants.public.Checks.modules.release_mode),
    release_after_days: z.string(),
    release_on: z.string(),
  })
  .superRefine((v, ctx) => {
    if (v.release_mode === 'AFTER_ENROLLMENT') {
      const days = Number(v.release_after_days);
      const message =
        v.release_after_days.trim() === ''
          ? 'Informe em quantos dias após a matrícula o módulo é liberado'
          : !Number.isInteger(days) || days < 1
            ? 'Informe um número inteiro de dias, a partir de 1'
            : days > 3650
              ? 'Máximo de 3.650 dias (10 anos)'
              : null;
      if (message) ctx.addIssue({ code: 'custom', path: ['release_after_days'], message });
    }
    if (v.release_mode === 'ON_DATE') {
      const year = Number(v.release_on.slice(0, 4));
      const message = !v.release_on
        ? 'Informe a data de liberação'
        : !/^\d{4}-\d{2}-\d{2}$/.test(v.release_on) || year < 2000 || year > 2999
          ? 'Informe uma data válida'
          : null;
      if (message) ctx.addIssue({ code: 'custom', path: ['release_on'], message });
    }
  });
export type ModuleFormValues = z.infer<typeof moduleSchema>;

export const lessonSchema = z
  .object({
    title: z.string().trim().min(1, 'Título é obrigatório').max(200, 'Máximo de 200 caracteres'),
    content: z.string().max(200000, 'Conteúdo muito longo'),
    is_preview: z.boolean(),
    ...videoSourceFields,
    duration_min: z.coerce
      .number({ message: 'Informe a duração em minutos' })
      .min(0, 'Mínimo 0')
      .max(100000, 'Duração muito longa'),
  })
  .superRefine(checkVideoSource);
export type LessonFormInput = z.input<typeof lessonSchema>;
export type LessonFormValues = z.output<typeof lessonSchema>;
