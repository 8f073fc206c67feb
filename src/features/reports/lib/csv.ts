// CSV exports of the reports: the columns of each table, written by the one CSV writer (src/utils/csv.ts).
import type { IssuedCertificate, QuizReportRow, ReportStudent } from '../api/queries';
import { toCsv } from '@/utils/csv';
import { formatScore } from '@/concepts/quiz-state';

export const CSV_HEADER = ['Nome', 'E-mail', 'Cursos matriculados', 'Matrículas ativas', 'Aulas concluídas', 'Total de aulas', 'Progresso (%)', 'Último acesso'];

export function csvRows(rows: ReportStudent[], formatDate: (d: string) => string): string[][] {
  return rows.map((r) => [r.name, r.email ?? '', String(r.enrolled_courses), String(r.active_enrollments), String(r.completed_lessons), String(r.total_lessons), String(r.progress), r.last_access ? formatDate(r.last_access) : 'Nunca']);
}

export function reportCsv(rows: ReportStudent[], formatDate: (d: string) => string): Promise<string> {
  return toCsv(CSV_HEADER, csvRows(rows, formatDate));
}

export const CERTIFICATES_CSV_HEADER = ['Código', 'Aluno', 'Curso', 'Conclusão', 'Carga horária (h)', 'Link de verificação'];

export function certificatesCsv(rows: IssuedCertificate[], formatDate: (d: string) => string, verificationUrl: (code: string) => string): Promise<string> {
  return toCsv(
    CERTIFICATES_CSV_HEADER,
    rows.map((c) => [c.code, c.student_name, c.course_title, formatDate(c.completed_at), String(c.workload_hours), verificationUrl(c.code)]),
  );
}

export const QUIZZES_CSV_HEADER = ['Aluno', 'E-mail', 'Avaliação', 'Curso', 'Melhor nota', 'Tentativas', 'Aprovado', 'Última tentativa'];

/** Reports → Avaliações. Names and titles are typed by people: toCsv neutralises any formula in them. */
export function quizReportCsv(rows: QuizReportRow[], formatDate: (d: string) => string): Promise<string> {
  return toCsv(
    QUIZZES_CSV_HEADER,
    rows.map((r) => [r.name, r.email ?? '', r.lesson_title, r.course_title, formatScore(r.best_score), String(r.attempts), r.passed ? 'Sim' : 'Não', formatDate(r.last_attempt_at)]),
  );
}
