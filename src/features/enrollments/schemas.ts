// The Nova Matrícula form (SPEC §2 "Enrollments", §5): an active student, a course, a turma of it when
// it has turmas (issue 40), and an optional last day (today or later).
import { z } from '@/platform/zod';

export const enrollSchema = (today: string) =>
  z.object({
    user_id: z.string().min(1, 'Selecione um aluno'),
    course_id: z.string().min(1, 'Selecione um curso'),
    // '' : no turma (issue 40).
    turma_id: z.string(),
    // 'aaaa-mm-dd' compares as text.
    expires: z.string().refine((day) => day === '' || day >= today, 'A data de expiração deve ser hoje ou depois'),
  });
export type EnrollValues = z.infer<ReturnType<typeof enrollSchema>>;

/** The end of the chosen day in Brazil's time zone; null without a day. */
export const expiresAtOf = (day: string): string | null => (day ? new Date(`${day}T23:59:59-03:00`).toISOString() : null);
