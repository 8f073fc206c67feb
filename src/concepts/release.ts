// Drip release (issue 14): when a module's lessons open for a student. The same rule as the database's
// private.module_release_at (supabase/migrations/20261123000800_drip_release.sql), which is what really
// decides; the pages use this one to show the lock and the date without asking the server again.
// Shared by the course page, the player's side panel, the lesson page and the content editor's badge.
// Inside a turma (issue 40) the rule is private.enrollment_release_at's
// (supabase/migrations/20261128004000_turmas.sql): counted from the turma's start, a turma date
// overrides the module's rule, and nothing opens before the start.
import type { Tables } from '@/types/database';
import { formatDate } from '@/utils/format';

export type ReleaseMode = Tables<'modules'>['release_mode'];

export interface ReleaseRule {
  release_mode: string;
  release_after_days: number | null;
  /** 'aaaa-mm-dd': opens at 00:00 in São Paulo. */
  release_on: string | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

// Built on first use (a formatter loads locale data; most pages never ask).
let saoPaulo: Intl.DateTimeFormat | undefined;
const saoPauloClock = () =>
  (saoPaulo ??= new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/Sao_Paulo',
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }));

/** São Paulo's wall clock minus UTC at this instant, in ms (−3 h today). */
function saoPauloOffset(at: number): number {
  const p = Object.fromEntries(saoPauloClock().formatToParts(new Date(at)).map((x) => [x.type, Number(x.value)]));
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - Math.floor(at / 1000) * 1000;
}

/** 00:00 in São Paulo on 'aaaa-mm-dd', as an instant; null for anything else. The zone's own rules give
 * the offset (no fixed −03:00), so a future daylight-saving change is followed. */
export function startOfDayInSaoPaulo(day: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  const utcMidnight = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const guess = utcMidnight - saoPauloOffset(utcMidnight);
  return new Date(utcMidnight - saoPauloOffset(guess));
}

/** When the module opens for a student enrolled at `enrolledAt`: null when at once, or when the rule
 * counts from an enrollment that is not given. AFTER_ENROLLMENT: enrollment + N × 24 h. */
export function releaseAt(rule: ReleaseRule, enrolledAt: string | null | undefined): Date | null {
  if (rule.release_mode === 'AFTER_ENROLLMENT' && rule.release_after_days && enrolledAt) {
    const start = new Date(enrolledAt).getTime();
    return Number.isNaN(start) ? null : new Date(start + rule.release_after_days * DAY_MS);
  }
  if (rule.release_mode === 'ON_DATE' && rule.release_on) return startOfDayInSaoPaulo(rule.release_on);
  return null;
}

/** The student's turma as the course page embeds it (enrollments → turmas): its start and calendar. */
export interface EnrollmentTurma {
  name: string;
  /** 'aaaa-mm-dd': the turma starts at 00:00 in São Paulo. */
  starts_on: string;
  ends_on: string | null;
  turma_module_dates: readonly { module_id: string; opens_on: string }[];
}

/** An enrollment as the release rule reads it: its date, and its turma when it has one. */
export interface ReleaseEnrollment {
  created_at: string;
  turma?: EnrollmentTurma | null;
}

/** The turma's own date for this module ('aaaa-mm-dd'), if its calendar sets one. */
export function turmaModuleDate(turma: EnrollmentTurma | null | undefined, moduleId: string): string | null {
  return turma?.turma_module_dates.find((d) => d.module_id === moduleId)?.opens_on ?? null;
}

/** When the module opens for this enrollment; null when at once. Outside a turma: releaseAt from the
 * enrollment. Inside one: the turma's date for the module, else the module's rule counted from the
 * turma's start, and never before that start (private.enrollment_release_at). */
export function enrollmentReleaseAt(rule: { id: string } & ReleaseRule, enrollment: ReleaseEnrollment): Date | null {
  const turma = enrollment.turma;
  if (!turma) return releaseAt(rule, enrollment.created_at);
  const start = startOfDayInSaoPaulo(turma.starts_on);
  if (!start) return null;
  const turmaDate = turmaModuleDate(turma, rule.id);
  const at = turmaDate ? startOfDayInSaoPaulo(turmaDate) : releaseAt(rule, start.toISOString());
  return at && at.getTime() > start.getTime() ? at : start;
}

/** The modules still locked for this student, with the moment each opens. `enrollment` is the
 * student's ACTIVE enrollment; without one (staff, or no access to the course) nothing is locked by
 * date — staff see everything, and a student without access is locked out of the course anyway. */
export function moduleLocks(
  modules: readonly ({ id: string } & ReleaseRule)[],
  { enrollment, now = new Date() }: { enrollment: ReleaseEnrollment | null; now?: Date },
): Map<string, Date> {
  const locks = new Map<string, Date>();
  if (!enrollment) return locks;
  for (const m of modules) {
    const at = enrollmentReleaseAt(m, enrollment);
    if (at && at.getTime() > now.getTime()) locks.set(m.id, at);
  }
  return locks;
}

/** The start of the student's turma while it is still ahead (no lesson opens before it); else null. */
export function turmaStartAhead(turma: Pick<EnrollmentTurma, 'starts_on'> | null | undefined, now: Date = new Date()): Date | null {
  const start = turma ? startOfDayInSaoPaulo(turma.starts_on) : null;
  return start && start.getTime() > now.getTime() ? start : null;
}

/** 'dd/mm' of an 'aaaa-mm-dd' day, as the turma's texts write it. */
function dayAndMonth(day: string): string {
  const [, month, date] = day.split('-');
  return `${date}/${month}`;
}

/** 'Sua turma começa em 10/03'. */
export function turmaStartsText(turma: Pick<EnrollmentTurma, 'starts_on'>): string {
  return `Sua turma começa em ${dayAndMonth(turma.starts_on)}`;
}

/** A locked module's date: 'Libera em 12/04' when it opens on the turma calendar's date, else
 * 'Disponível em dd/mm/aaaa' (a turma date before the turma's start opens at the start). */
export function lockedModuleText(at: Date, turmaDate: string | null): string {
  return turmaDate && startOfDayInSaoPaulo(turmaDate)?.getTime() === at.getTime() ? `Libera em ${dayAndMonth(turmaDate)}` : availableOnText(at);
}

/** 'Disponível em dd/mm/aaaa' (the date in São Paulo). */
export function availableOnText(at: Date): string {
  return `Disponível em ${formatDate(at)}`;
}

/** The content editor's badge: 'Libera 7 dias após a matrícula', 'Libera em dd/mm/aaaa'; null when immediate. */
export function releaseRuleText(rule: ReleaseRule): string | null {
  if (rule.release_mode === 'AFTER_ENROLLMENT' && rule.release_after_days) {
    return `Libera ${rule.release_after_days} ${rule.release_after_days === 1 ? 'dia' : 'dias'} após a matrícula`;
  }
  if (rule.release_mode === 'ON_DATE' && rule.release_on) {
    const at = startOfDayInSaoPaulo(rule.release_on);
    return at ? `Libera em ${formatDate(at)}` : null;
  }
  return null;
}

/** The outline without the lessons a lock keeps closed (a locked module keeps its previews): where
 * 'Continuar curso' may lead. */
export function withoutLockedLessons<M extends { id: string; lessons: readonly { is_preview: boolean }[] }>(
  modules: readonly M[],
  locks: ReadonlyMap<string, Date>,
): M[] {
  return modules.map((m) => (locks.has(m.id) ? { ...m, lessons: m.lessons.filter((l) => l.is_preview) } : m));
}
