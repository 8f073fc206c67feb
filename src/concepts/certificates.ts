// What a certificate says (issue 14), as pure functions shared by the PDF, the verification page,
// the student pages and Reports, so they never disagree. The workload is the number recorded at
// issue time (whole hours, rounded, at least 1: public.issue_certificate); dates are in Brazil's
// time zone.
import type { EnrollmentAccess } from './enrollment';

let longDate: Intl.DateTimeFormat | undefined; // built on first use, as in format.ts

/** '23 de novembro de 2026'; '' for a missing or invalid date. */
export function formatLongDate(value: string | Date | null | undefined): string {
  if (!value) return '';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  longDate ??= new Intl.DateTimeFormat('pt-BR', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'America/Sao_Paulo' });
  return longDate.format(d);
}

/** '1 hora', '12 horas'. */
export function workloadText(hours: number): string {
  return `${hours} ${hours === 1 ? 'hora' : 'horas'}`;
}

/** The public page that confirms a certificate: <origin>/certificado/<code>. */
export function verificationUrl(origin: string, code: string): string {
  return `${origin.replace(/\/+$/, '')}/certificado/${encodeURIComponent(code)}`;
}

export function certificateFileName(courseSlug: string): string {
  return `certificado-${courseSlug}.pdf`;
}

/** 'Baixar certificado' is offered when the course issues certificates, the student is enrolled
 * with access, and every lesson of the course (at least one) is completed — the same rule
 * public.issue_certificate checks. */
export function certificateAvailable({ enabled, access, completed, total }: { enabled: boolean | undefined; access: EnrollmentAccess; completed: number; total: number }): boolean {
  return enabled === true && access === 'active' && total > 0 && completed >= total;
}
