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
  })
  .superRefine(checkVideoSource);
export type AnnouncementFormInput = z.input<typeof announcementSchema>;
export type AnnouncementFormValues = z.output<typeof announcementSchema>;
