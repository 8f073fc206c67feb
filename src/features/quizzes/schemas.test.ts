// The quiz settings' messages (issue 46): a negative or zero value is answered with the field's range,
// not "Use um número inteiro" (−3 hours is an integer, just not an interval).
import { describe, expect, it } from 'vitest';
import { quizSettingsSchema, type QuizSettingsInput } from './schemas';

const valid: QuizSettingsInput = {
  pass_mark: '70',
  max_attempts: '',
  wait_hours: '0',
  time_limit_minutes: '',
  late_policy: 'grade_at_deadline',
  shuffle_questions: false,
  shuffle_options: false,
  show_answers: 'after_each_attempt',
};
const messageOf = (change: Partial<QuizSettingsInput>) => {
  const result = quizSettingsSchema.safeParse({ ...valid, ...change });
  return result.success ? null : result.error.issues.map((i) => i.message);
};

describe('quizSettingsSchema', () => {
  it('a negative interval, pass mark or time limit says the range', () => {
    expect(messageOf({ wait_hours: '-3' })).toEqual(['Use de 0 a 720 horas (30 dias)']);
    expect(messageOf({ pass_mark: '-10' })).toEqual(['Use um valor entre 1 e 100']);
    expect(messageOf({ time_limit_minutes: '-5' })).toEqual(['Use de 1 a 600 minutos, ou deixe em branco']);
  });

  it('zero where it is not allowed says the range; zero hours is no interval at all', () => {
    expect(messageOf({ pass_mark: '0' })).toEqual(['Use um valor entre 1 e 100']);
    expect(messageOf({ time_limit_minutes: '0' })).toEqual(['Use de 1 a 600 minutos, ou deixe em branco']);
    expect(messageOf({ wait_hours: '0' })).toBeNull();
  });

  it('a fraction or a word is not an integer; an empty field asks for it', () => {
    expect(messageOf({ wait_hours: '1.5' })).toEqual(['Use um número inteiro']);
    expect(messageOf({ pass_mark: 'setenta' })).toEqual(['Use um número inteiro']);
    expect(messageOf({ time_limit_minutes: '2,5' })).toEqual(['Use um número inteiro de minutos, ou deixe em branco']);
    expect(messageOf({ wait_hours: ' ' })?.[0]).toBe('Informe o intervalo (0 para nenhum)');
  });
});
