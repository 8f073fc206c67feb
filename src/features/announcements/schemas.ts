// The staff's announcement form (SPEC §2 "Announcements", §5), with its video source checked by the
// one rule of src/concepts/video-source.ts.
import { z } from '@/platform/zod';
import { checkVideoSource, videoSourceFields } from '@/concepts/video-source';

export const announcementSchema = z
  .object({
    title: z.string().trim().min(1, 'Título é obrigatório').max(200, 'Máximo de 200 caracteres'),
    body: z.string().refine((html) => html.replace(/<[^>]*>/g, '').trim().length > 0, 'Mensagem é obrigatória'),
    image_url: z.string().nullable(),
    ...videoSourceFields,
    priority: z.coerce
      .number({ message: 'Informe a prioridade' })
      .int('Use um número inteiro')
      .min(0, 'Mínimo 0')
      .max(100, 'Máximo 100'),
    is_active: z.boolean(),
    // "Para quem" (issue 40): the whole school, or one turma of a course ("Comunicado para a turma").
    audience: z.enum(['school', 'turma']),
    course_id: z.string(),
    turma_id: z.string(),
    // "Enviar também por e-mail" (issue 40): a turma's announcement also goes to its students' inboxes.
    email_students: z.boolean(),
  })
  .superRefine(checkVideoSource)
  .superRefine((v, ctx) => {
    if (v.audience === 'turma' && !v.course_id) ctx.addIssue({ code: 'custom', path: ['course_id'], message: 'Selecione um curso' });
    else if (v.audience === 'turma' && !v.turma_id) ctx.addIssue({ code: 'custom', path: ['turma_id'], message: 'Selecione a turma' });
  });
export type AnnouncementFormInput = z.input<typeof announcementSchema>;
export type AnnouncementFormValues = z.output<typeof announcementSchema>;
