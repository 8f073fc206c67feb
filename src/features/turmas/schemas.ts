// The turma dialog (issue 40, docs/turmas.md): name, start, end or "Sem término", the sales window (São
// Paulo days), seats (empty: no limit) and the waiting list. The database checks the same limits
// (turmas_name_length, turmas_ends_after_start, turmas_enroll_window, turmas_seats_check).
import { z } from '@/platform/zod';
import { startOfDayInSaoPaulo } from '@/concepts/release';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export const turmaFormSchema = z
  .object({
    name: z.string().trim().min(1, 'Informe o nome da turma').max(120, 'O nome pode ter até 120 caracteres'),
    starts_on: z.string().regex(DAY, 'Informe a data de início'),
    no_end: z.boolean(),
    ends_on: z.string(),
    enroll_from: z.string(),
    enroll_until: z.string(),
    seats: z.string().trim().regex(/^\d{0,6}$/, 'Informe um número de vagas'),
    waitlist_enabled: z.boolean(),
  })
  .superRefine((v, ctx) => {
    if (!v.no_end && !DAY.test(v.ends_on)) ctx.addIssue({ code: 'custom', path: ['ends_on'], message: 'Informe a data de término ou marque "Sem término"' });
    else if (!v.no_end && v.ends_on < v.starts_on)
      ctx.addIssue({ code: 'custom', path: ['ends_on'], message: 'O término deve ser no dia do início ou depois' });
    if (v.enroll_from && v.enroll_until && v.enroll_until < v.enroll_from)
      ctx.addIssue({ code: 'custom', path: ['enroll_until'], message: 'O fim das inscrições deve ser depois do início' });
    const seats = Number(v.seats);
    if (v.seats && (seats < 1 || seats > 100000)) ctx.addIssue({ code: 'custom', path: ['seats'], message: 'As vagas vão de 1 a 100.000' });
  });

export type TurmaFormInput = z.input<typeof turmaFormSchema>;
export type TurmaFormValues = z.output<typeof turmaFormSchema>;

/** The day after 'aaaa-mm-dd'. */
function nextDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + 1)).toISOString().slice(0, 10);
}

/** The turmas row the form makes: inscriptions open at 00:00 of the first day and close at the end of
 * the last one (São Paulo). */
export function turmaRowFromForm(v: TurmaFormValues) {
  return {
    name: v.name,
    starts_on: v.starts_on,
    ends_on: v.no_end ? null : v.ends_on,
    enroll_from: v.enroll_from ? (startOfDayInSaoPaulo(v.enroll_from)?.toISOString() ?? null) : null,
    enroll_until: v.enroll_until ? (startOfDayInSaoPaulo(nextDay(v.enroll_until))?.toISOString() ?? null) : null,
    seats: v.seats ? Number(v.seats) : null,
    waitlist_enabled: v.waitlist_enabled,
  };
}

let saoPauloDay: Intl.DateTimeFormat | undefined;
/** The São Paulo day of an instant ('aaaa-mm-dd'); `endExclusive`: the day before (an "until" instant). */
export function dayOf(instant: string | null, endExclusive = false): string {
  if (!instant) return '';
  const at = new Date(new Date(instant).getTime() - (endExclusive ? 1 : 0));
  saoPauloDay ??= new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' });
  return saoPauloDay.format(at);
}
