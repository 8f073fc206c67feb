// describeError(): the pt-BR description of any failure the SPA meets, for the one error toast of
// src/platform/query-client.ts. PostgREST, Storage, GoTrue and our edge functions each answer differently;
// the database's own pt-BR refusals (RAISE in our functions) pass through unchanged.
import { isNetworkError } from './network-error';
import { toast } from './toast';

/** A refused unique or check constraint, said in pt-BR. The constraint names are the contract with supabase/migrations. */
const CONSTRAINT_MESSAGES: Record<string, string> = {
  courses_school_slug_key: 'Já existe um curso com este endereço na web nesta escola. Escolha outro.',
  schools_slug_key: 'Este endereço na web já é usado por outra escola. Escolha outro.',
  enrollments_user_course_key: 'Este aluno já está matriculado neste curso.',
  coupons_school_code_key: 'Já existe um cupom com este código.',
  course_bumps_other_course: 'A oferta adicional precisa ser outro curso, não o próprio curso à venda.',
  course_bumps_price_check: 'O preço especial da oferta adicional deve ser de pelo menos R$ 5,00.',
  plans_school_slug_key: 'Já existe um plano com este endereço na web nesta escola. Escolha outro.',
  plans_price_check: 'O preço do plano deve ser de pelo menos R$ 5,00.',
  integration_secrets_webhook_token_min_length:
    'O token do webhook deve ter pelo menos 32 caracteres (exigência do Asaas).',
  lesson_comments_comment_length: 'O comentário deve ter entre 1 e 2.000 caracteres.',
};

/** GoTrue's refusals that a person can act on, by their error code. */
const AUTH_CODE_MESSAGES: Record<string, string> = {
  mfa_verification_failed: 'Código inválido. Confira o código no aplicativo e tente de novo.',
  mfa_challenge_expired: 'O código expirou. Digite o código atual do aplicativo.',
  insufficient_aal: 'Confirme primeiro o código do aplicativo autenticador.',
};

export const NETWORK_ERROR_MESSAGE = 'Sem conexão com o servidor. Verifique sua internet e tente novamente.';
export const RATE_LIMIT_MESSAGE = 'Muitas tentativas. Aguarde alguns minutos e tente de novo.';
const UNIQUE_MESSAGE = 'Já existe um registro com estes dados.';
const PERMISSION_MESSAGE = 'Você não tem permissão para esta ação.';
const UNKNOWN_MESSAGE = 'Tente novamente mais tarde';

interface ErrorShape {
  message?: unknown;
  code?: unknown;
  details?: unknown;
  status?: unknown;
  statusCode?: unknown;
}

/** The name of the constraint a PostgreSQL error names, if it is one we word in pt-BR. */
export function refusedConstraint(error: unknown): string | null {
  const e = (error ?? {}) as ErrorShape;
  const text = `${String(e.message ?? '')} ${String(e.details ?? '')}`;
  return Object.keys(CONSTRAINT_MESSAGES).find((name) => text.includes(name)) ?? null;
}

/** A save's onError that also shows a constraint's refusal under the field to fix (the toast says it
 * too): a code or an address another row of the school already has. */
export function showRefusalAt(constraint: string, show: (message: string) => void) {
  return (error: unknown) => {
    if (refusedConstraint(error) === constraint) show(describeError(error));
  };
}

/** Whether the database refused a duplicate (unique violation), e.g. a slug already taken. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as ErrorShape | null)?.code === '23505';
}

export function describeError(error: unknown): string {
  if (typeof error === 'string') return error;
  if (isNetworkError(error)) return NETWORK_ERROR_MESSAGE;
  const e = (error ?? {}) as ErrorShape;
  const status = Number(e.status ?? e.statusCode);
  if (status === 429 || e.code === 'over_request_rate_limit') return RATE_LIMIT_MESSAGE;
  if (typeof e.code === 'string' && AUTH_CODE_MESSAGES[e.code]) return AUTH_CODE_MESSAGES[e.code]!;
  const constraint = refusedConstraint(error);
  if (constraint) return CONSTRAINT_MESSAGES[constraint]!;
  if (e.code === '23505') return UNIQUE_MESSAGE;
  // Row-level security (42501) and Storage's "new row violates row-level security policy" (403).
  if (e.code === '42501' || /row-level security/i.test(String(e.message ?? ''))) return PERMISSION_MESSAGE;
  if (isPostgresEnglish(e)) return UNKNOWN_MESSAGE;
  return typeof e.message === 'string' && e.message ? e.message : UNKNOWN_MESSAGE;
}

/**
 * The codes our migrations RAISE with a pt-BR message (P0001 is a RAISE without a code). Any other SQLSTATE
 * or PostgREST (PGRST…) error carries PostgreSQL's own English, e.g. 'record "new" has no field "created_at"'
 * (42703) from a broken trigger: never shown to a person.
 */
const OUR_RAISE_CODES = /^(P0001|P0002|PT\d{3}|DC\d{3}|22004|22023|23503|23514)$/;
/** PostgreSQL's own wording of a refused constraint, which comes with some of those codes too. */
const POSTGRES_REFUSAL = /violates (check|foreign key|not-null|unique|exclusion) constraint|^null value in column|^new row for relation|^value too long for type|^invalid input (syntax|value)/i;

function isPostgresEnglish(e: ErrorShape): boolean {
  if (typeof e.code !== 'string' || !/^([0-9A-Z]{5}|PGRST\d+)$/.test(e.code)) return false;
  return !OUR_RAISE_CODES.test(e.code) || POSTGRES_REFUSAL.test(String(e.message ?? ''));
}

/** The error toast of a failed mutation: its SPEC §8 title, and what went wrong in pt-BR (inline: 'Título: motivo'). */
export function toastError(title: string, error: unknown, messageInTitle = false): void {
  if (messageInTitle) toast.error(`${title}: ${describeError(error)}`);
  else toast.error(title, { description: describeError(error) });
}

/** The message of an unknown thrown value (supabase errors, Error, strings). */
export function errorMessage(error: unknown): string {
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') {
    return error.message;
  }
  if (typeof error === 'string') return error;
  return 'Erro desconhecido';
}
