// Drip release (issue 14): when a module's lessons open for a student. The same rule as the database's
// private.module_release_at (supabase/migrations/20261123000800_drip_release.sql), which is what really
// decides; the pages use this one to show the lock and the date without asking the server again.
// Shared by the course page, the player's side panel, the lesson page and the content editor's badge.
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

/** The modules still locked for this student, with the moment each opens. `enrollment` is the
 * student's ACTIVE enrollment; without one (staff, or no access to the course) nothing is locked by
 * date — staff see everything, and a student without access is locked out of the course anyway. */
export function moduleLocks(
  modules: readonly ({ id: string } & ReleaseRule)[],
  { enrollment, now = new Date() }: { enrollment: { created_at: string } | null; now?: Date },
): Map<string, Date> {
  const locks = new Map<string, Date>();
  if (!enrollment) return locks;
  for (const m of modules) {
    const at = releaseAt(m, enrollment.created_at);
    if (at && at.getTime() > now.getTime()) locks.set(m.id, at);
  }
  return locks;
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
