import { describe, expect, it } from 'vitest';
import { attemptsLeft, clockText, formatQuizMoment, formatScore, quizStateLabel, quizSummaryText, remainingMs, stateOfRow, type QuizStateRow } from './quiz-state';

const now = new Date('2026-11-26T12:00:00Z');
const row = (over: Partial<QuizStateRow> = {}): QuizStateRow => ({
  course_id: 'c1',
  lesson_id: 'l1',
  quiz_id: 'q1',
  state: 'not_started',
  attempts_used: 0,
  max_attempts: 2,
  best_score: null,
  next_attempt_at: null,
  ...over,
});

describe('quiz states', () => {
  it("dates are São Paulo's: 'dd/mm/aaaa às hh:mm'", () => {
    expect(formatQuizMoment('2026-11-26T15:05:00Z')).toBe('26/11/2026 às 12:05');
    expect(formatQuizMoment('2026-11-27T02:30:00Z')).toBe('26/11/2026 às 23:30');
    expect(formatQuizMoment(null)).toBe('');
  });

  it('labels each state, a failed one with the wait or without attempts', () => {
    expect(quizStateLabel(stateOfRow(row()), now)).toBe('Não iniciada');
    expect(quizStateLabel(stateOfRow(row({ state: 'in_progress' })), now)).toBe('Em andamento');
    expect(quizStateLabel(stateOfRow(row({ state: 'passed', attempts_used: 1 })), now)).toBe('Aprovado');
    expect(quizStateLabel(stateOfRow(row({ state: 'failed', attempts_used: 1, next_attempt_at: '2026-11-26T16:00:00Z' })), now)).toBe(
      'Reprovado — tente novamente em 26/11/2026 às 13:00',
    );
    // The wait is over.
    expect(quizStateLabel(stateOfRow(row({ state: 'failed', attempts_used: 1, next_attempt_at: '2026-11-26T11:00:00Z' })), now)).toBe('Reprovado — tente novamente');
    expect(quizStateLabel(stateOfRow(row({ state: 'failed', attempts_used: 2 })), now)).toBe('Reprovado — sem tentativas');
    expect(quizStateLabel(stateOfRow(row({ state: 'failed', attempts_used: 9, max_attempts: null })), now)).toBe('Reprovado — tente novamente');
  });

  it('attempts left: null when unlimited, never below 0', () => {
    expect(attemptsLeft(row({ attempts_used: 1 }))).toBe(1);
    expect(attemptsLeft(row({ attempts_used: 3 }))).toBe(0);
    expect(attemptsLeft(row({ max_attempts: null }))).toBeNull();
  });

  it("sums up a course's quizzes for its home card", () => {
    expect(quizSummaryText([], now)).toBeNull();
    expect(quizSummaryText([row({ state: 'passed' })], now)).toBe('Avaliação aprovada');
    expect(quizSummaryText([row({ state: 'passed' }), row({ state: 'passed' })], now)).toBe('2 de 2 avaliações aprovadas');
    expect(quizSummaryText([row(), row({ state: 'in_progress' }), row({ state: 'passed' })], now)).toBe('2 avaliações pendentes · 1 em andamento');
    expect(quizSummaryText([row({ state: 'failed', attempts_used: 1, next_attempt_at: '2026-11-26T16:00:00Z' })], now)).toBe(
      '1 avaliação pendente · próxima tentativa em 26/11/2026 às 13:00',
    );
    expect(quizSummaryText([row({ state: 'failed', attempts_used: 2 })], now)).toBe('1 avaliação pendente · 1 sem tentativas');
  });

  it('scores in pt-BR', () => {
    expect(formatScore(80)).toBe('80%');
    expect(formatScore(66.67)).toBe('66,67%');
    expect(formatScore('50.5')).toBe('50,5%');
  });

  it("the timer runs on the server's clock", () => {
    // The server said 12:00:00 when this browser's clock said 12:00:30 (30 s ahead).
    const receivedAt = Date.parse('2026-11-26T12:00:30Z');
    expect(remainingMs('2026-11-26T12:10:00Z', '2026-11-26T12:00:00Z', receivedAt, receivedAt)).toBe(10 * 60_000);
    expect(remainingMs('2026-11-26T12:10:00Z', '2026-11-26T12:00:00Z', receivedAt, receivedAt + 11 * 60_000)).toBe(0);
    expect(clockText(10 * 60_000)).toBe('10:00');
    expect(clockText(59_001)).toBe('01:00');
    expect(clockText(3_725_000)).toBe('1:02:05');
  });
});
