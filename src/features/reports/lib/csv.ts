// CSV export of a report tab, for Excel in pt-BR: ';' between fields, UTF-8 with a BOM.
import type { ReportStudent } from '../api/queries';
import { downloadBlob } from '@/lib/download';

export const CSV_HEADER = ['Nome', 'E-mail', 'Cursos matriculados', 'Matrículas ativas', 'Aulas concluídas', 'Total de aulas', 'Progresso (%)', 'Último acesso'];

export function csvRows(rows: ReportStudent[], formatDate: (d: string) => string): string[][] {
  return rows.map((r) => [r.name, r.email ?? '', String(r.enrolled_courses), String(r.active_enrollments), String(r.completed_lessons), String(r.total_lessons), String(r.progress), r.last_access ? formatDate(r.last_access) : 'Nunca']);
}

/** papaparse is loaded only when someone exports. */
export async function reportCsv(rows: ReportStudent[], formatDate: (d: string) => string): Promise<string> {
  const { default: Papa } = await import('papaparse');
  return '\ufeff' + Papa.unparse({ fields: CSV_HEADER, data: csvRows(rows, formatDate) }, { delimiter: ';', newline: '\r\n' });
}

export function downloadText(fileName: string, text: string, type = 'text/csv;charset=utf-8') {
  downloadBlob(fileName, new Blob([text], { type }));
}
