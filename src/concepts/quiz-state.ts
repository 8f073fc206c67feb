// A quiz lesson's state for the student (issue 23, docs/quizzes.md): the rows of my_quiz_states and
// their pt-BR labels, shared by the quiz player (features/quizzes), the lesson side panel
// (features/lessons), the course page and the home (features/courses), which may not import each
// other. Dates are São Paulo's, as everywhere in the app.
import type { DbClient } from '@/platform/db';
import { formatDate } from '@/utils/format';

export type QuizState = 'not_started' | 'in_progress' | 'failed' | 'passed';

/** A row of my_quiz_states: one published quiz of a course the student studies. */
export interface QuizStateRow {
  course_id: string;
  lesson_id: string;
  quiz_id: string;
  state: QuizState;
  attempts_used: number;
  /** null: unlimited. */
  max_attempts: number | null;
  best_score: number | null;
  /** When the wait after a failed attempt ends (null: no wait). */
  next_attempt_at: string | null;
}

/** The quiz states of the caller's lessons in a course (`courseId` null: in every course). */
export async function fetchQuizStates(client: DbClient, courseId: string | null): Promise<QuizStateRow[]> {
  const { data, error } = await client.rpc('my_quiz_states', { p_course_id: courseId });
  if (error) throw error;
  return (data ?? []) as QuizStateRow[];
}

/** The rows by lesson, for the outline's lookups. */
export function quizStatesByLesson(rows: readonly QuizStateRow[] | null | undefined): Map<string, QuizStateRow> {
  return new Map((rows ?? []).map((r) => [r.lesson_id, r]));
}

/** Attempts the student still has (null: unlimited). */
export function attemptsLeft({ attempts_used, max_attempts }: Pick<QuizStateRow, 'attempts_used' | 'max_attempts'>): number | null {
  return max_attempts === null ? null : Math.max(0, max_attempts - attempts_used);
}

let time: Intl.DateTimeFormat | undefined; // built on first use, as in format.ts

/** 'dd/mm/aaaa às hh:mm' in São Paulo; '' for a missing or invalid date. */
export function formatQuizMoment(value: string | Date | null | undefined): string {
  const day = formatDate(value ?? null);
  if (!day) return '';
  time ??= new Intl.DateTimeFormat('pt-BR', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'America/Sao_Paulo' });
  return `${day} às ${time.format(value instanceof Date ? value : new Date(value!))}`;
}

/** The wait before the next attempt, when it is still running at `now`. */
export function pendingWait(nextAttemptAt: string | null, now: Date = new Date()): Date | null {
  if (!nextAttemptAt) return null;
  const at = new Date(nextAttemptAt);
  return Number.isNaN(at.getTime()) || at.getTime() <= now.getTime() ? null : at;
}

export type QuizStateInput = Pick<QuizStateRow, 'state' | 'next_attempt_at'> & { attempts_left: number | null };

/** What the row of a quiz lesson says: 'Não iniciada', 'Em andamento', 'Reprovado — tente novamente
 * em dd/mm/aaaa às hh:mm' (or '— sem tentativas'), 'Aprovado'. */
export function quizStateLabel({ state, next_attempt_at, attempts_left }: QuizStateInput, now: Date = new Date()): string {
  switch (state) {
    case 'not_started':
      return 'Não iniciada';
    case 'in_progress':
      return 'Em andamento';
    case 'passed':
      return 'Aprovado';
    case 'failed': {
      if (attempts_left === 0) return 'Reprovado — sem tentativas';
      const wait = pendingWait(next_attempt_at, now);
      return wait ? `Reprovado — tente novamente em ${formatQuizMoment(wait)}` : 'Reprovado — tente novamente';
    }
  }
}

/** A my_quiz_states row as quizStateLabel's input. */
export function stateOfRow(row: QuizStateRow): QuizStateInput {
  return { state: row.state, next_attempt_at: row.next_attempt_at, attempts_left: attemptsLeft(row) };
}

/** A course's quizzes summed up for its home card: '1 avaliação pendente', '2 de 2 avaliações aprovadas'. */
export function quizSummaryText(rows: readonly QuizStateRow[], now: Date = new Date()): string | null {
  if (rows.length === 0) return null;
  const passed = rows.filter((r) => r.state === 'passed').length;
  if (passed === rows.length) return rows.length === 1 ? 'Avaliação aprovada' : `${passed} de ${rows.length} avaliações aprovadas`;
  const pending = rows.length - passed;
  const parts = [pending === 1 ? '1 avaliação pendente' : `${pending} avaliações pendentes`];
  const inProgress = rows.filter((r) => r.state === 'in_progress').length;
  if (inProgress) parts.push(`${inProgress} em andamento`);
  const blocked = rows.filter((r) => r.state === 'failed' && attemptsLeft(r) === 0).length;
  if (blocked) parts.push(`${blocked} sem tentativas`);
  const waits = rows
    .filter((r) => r.state === 'failed' && attemptsLeft(r) !== 0)
    .map((r) => pendingWait(r.next_attempt_at, now))
    .filter((d): d is Date => d !== null)
    .sort((a, b) => a.getTime() - b.getTime());
  if (waits[0] && waits.length === pending - inProgress - blocked) parts.push(`próxima tentativa em ${formatQuizMoment(waits[0])}`);
  return parts.join(' · ');
}

let percent: Intl.NumberFormat | undefined;

/** A score (0–100, 2 decimals) as '80%', '66,67%'. */
export function formatScore(score: number | string | null | undefined): string {
  const n = Number(score ?? 0);
  percent ??= new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 2 });
  return `${percent.format(Number.isFinite(n) ? n : 0)}%`;
}

// ── The attempt's timer ──────────────────────────────────────────────────────────────────────

/** ms left until `deadline` on the server's clock, given its `serverNow` received at `receivedAt` (browser ms). */
export function remainingMs(deadline: string, serverNow: string, receivedAt: number, browserNow = Date.now()): number {
  const offset = Date.parse(serverNow) - receivedAt;
  return Math.max(0, Date.parse(deadline) - (browserNow + offset));
}

/** 'mm:ss', or 'h:mm:ss' from an hour. */
export function clockText(ms: number): string {
  const total = Math.ceil(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${pad(m)}:${pad(s)}`;
}
