// The quiz editor's forms (issue 23, docs/quizzes.md): a quiz's settings and a question, with the limits
// of the database's checks (supabase/migrations/20261126000800_quizzes.sql) and pt-BR messages.
import { z } from '@/platform/zod';
import { Constants, type Tables } from '@/types/database';

const CHECKS = Constants.public.Checks;
export const QUESTION_KINDS = CHECKS.quiz_questions.kind;
export const QUESTION_SCORINGS = CHECKS.quiz_questions.scoring;
export const LATE_POLICIES = CHECKS.quizzes.late_policy;
export const SHOW_ANSWERS = CHECKS.quizzes.show_answers;

export type QuestionKind = Tables<'quiz_questions'>['kind'];
export type QuestionScoring = Tables<'quiz_questions'>['scoring'];
export type LatePolicy = Tables<'quizzes'>['late_policy'];
export type ShowAnswers = Tables<'quizzes'>['show_answers'];

export const KIND_LABEL: Record<QuestionKind, string> = {
  single: 'Escolha única',
  multiple: 'Múltipla escolha',
  true_false: 'Verdadeiro ou falso',
};
export const SCORING_LABEL: Record<QuestionScoring, string> = {
  all_or_nothing: 'Tudo ou nada',
  partial: 'Crédito parcial',
};
export const LATE_POLICY_LABEL: Record<LatePolicy, string> = {
  grade_at_deadline: 'Corrigir as respostas salvas até o fim do tempo',
  refuse: 'Recusar o envio',
};
export const SHOW_ANSWERS_LABEL: Record<ShowAnswers, string> = {
  after_each_attempt: 'Após cada tentativa',
  after_passing: 'Somente após aprovação',
  never: 'Nunca',
};

/** The true/false question's two options, in this order. */
export const TRUE_FALSE_TEXTS = ['Verdadeiro', 'Falso'] as const;
export const MIN_OPTIONS = 2;
export const MAX_OPTIONS = 10;
/** "Tentativas permitidas": 1 to 10, or '' for Ilimitadas. */
export const ATTEMPT_CHOICES = Array.from({ length: 10 }, (_, i) => String(i + 1));

/** An integer typed in a number field: a negative one or zero is an integer out of range (it says the
 * range), not "Use um número inteiro"; only a fraction or a word is not an integer. */
const INTEGER = /^-?\d+$/;

const wholeNumber = (field: string, min: number, max: number, range: string) =>
  z
    .string()
    .trim()
    .min(1, `Informe ${field}`)
    .refine((v) => INTEGER.test(v), 'Use um número inteiro')
    .transform(Number)
    .refine((n) => n >= min && n <= max, range);

export const quizSettingsSchema = z.object({
  pass_mark: wholeNumber('a nota mínima', 1, 100, 'Use um valor entre 1 e 100'),
  max_attempts: z
    .string()
    .refine((v) => v === '' || ATTEMPT_CHOICES.includes(v), 'Escolha de 1 a 10 tentativas, ou Ilimitadas')
    .transform((v) => (v === '' ? null : Number(v))),
  wait_hours: wholeNumber('o intervalo (0 para nenhum)', 0, 720, 'Use de 0 a 720 horas (30 dias)'),
  time_limit_minutes: z
    .string()
    .trim()
    .refine((v) => v === '' || INTEGER.test(v), 'Use um número inteiro de minutos, ou deixe em branco')
    .transform((v) => (v === '' ? null : Number(v)))
    .refine((n) => n === null || (n >= 1 && n <= 600), 'Use de 1 a 600 minutos, ou deixe em branco'),
  late_policy: z.enum(LATE_POLICIES),
  shuffle_questions: z.boolean(),
  shuffle_options: z.boolean(),
  show_answers: z.enum(SHOW_ANSWERS),
});
export type QuizSettingsInput = z.input<typeof quizSettingsSchema>;
export type QuizSettingsValues = z.output<typeof quizSettingsSchema>;

export const questionSchema = z
  .object({
    kind: z.enum(QUESTION_KINDS),
    scoring: z.enum(QUESTION_SCORINGS),
    statement: z.string().trim().min(1, 'Escreva o enunciado da pergunta').max(5000, 'Máximo de 5.000 caracteres'),
    options: z
      .array(
        z.object({
          id: z.string().min(1),
          text: z.string().trim().min(1, 'Escreva o texto da opção').max(500, 'Máximo de 500 caracteres'),
          correct: z.boolean(),
        }),
      )
      .min(MIN_OPTIONS, 'Informe ao menos duas opções')
      .max(MAX_OPTIONS, 'No máximo dez opções'),
    explanation: z.string().trim().max(5000, 'Máximo de 5.000 caracteres'),
    image_path: z.string().nullable(),
  })
  .superRefine((v, ctx) => {
    const correct = v.options.filter((o) => o.correct).length;
    if (v.kind === 'multiple' && correct === 0) {
      ctx.addIssue({ code: 'custom', path: ['options'], message: 'Marque ao menos uma opção correta' });
    }
    if (v.kind !== 'multiple' && correct !== 1) {
      ctx.addIssue({ code: 'custom', path: ['options'], message: 'Marque a opção correta' });
    }
  });
export type QuestionFormValues = z.infer<typeof questionSchema>;
