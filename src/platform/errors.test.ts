import { describe, expect, it } from 'vitest';
import { describeError, errorMessage, isUniqueViolation, refusedConstraint } from './errors';

describe('describeError', () => {
  it('words the constraints the screens know in pt-BR', () => {
    const slug = { code: '23505', message: 'duplicate key value violates unique constraint "courses_school_slug_key"' };
    expect(describeError(slug)).toBe('Já existe um curso com este endereço na web nesta escola. Escolha outro.');
    expect(refusedConstraint(slug)).toBe('courses_school_slug_key');
    expect(isUniqueViolation(slug)).toBe(true);
    const token = { code: '23514', message: 'new row for relation "integration_secrets" violates check constraint "integration_secrets_webhook_token_min_length"' };
    expect(describeError(token)).toBe('O token do webhook deve ter pelo menos 32 caracteres (exigência do Asaas).');
    expect(describeError({ code: '23505', message: 'duplicate key value violates unique constraint "enrollments_user_course_key"' })).toBe('Este aluno já está matriculado neste curso.');
    expect(describeError({ code: '23514', message: 'new row for relation "lesson_comments" violates check constraint "lesson_comments_comment_length"' })).toBe(
      'O comentário deve ter entre 1 e 2.000 caracteres.',
    );
  });

  it('never shows PostgreSQL English for duplicates and refusals it does not know by name', () => {
    expect(describeError({ code: '23505', message: 'duplicate key value violates unique constraint "x_key"' })).toBe('Já existe um registro com estes dados.');
    expect(describeError({ code: '42501', message: 'new row violates row-level security policy for table "courses"' })).toBe('Você não tem permissão para esta ação.');
    expect(describeError({ statusCode: '403', message: 'new row violates row-level security policy' })).toBe('Você não tem permissão para esta ação.');
  });

  // Issue 46: Configurações → E-mails showed 'Erro ao salvar — record "new" has no field "created_at"'.
  it("never shows PostgreSQL's or PostgREST's own English for an error it does not know", () => {
    for (const error of [
      { code: '42703', message: 'record "new" has no field "created_at"' },
      { code: '42883', message: 'function public.x(uuid) does not exist' },
      { code: 'XX000', message: 'cache lookup failed for relation 1234' },
      { code: '22P02', message: 'invalid input syntax for type uuid: "abc"' },
      { code: '23502', message: 'null value in column "title" of relation "courses" violates not-null constraint' },
      { code: '23514', message: 'new row for relation "courses" violates check constraint "courses_title_not_blank"' },
      { code: '23503', message: 'insert or update on table "enrollments" violates foreign key constraint "enrollments_course_id_fkey"' },
      { code: 'PGRST116', message: 'JSON object requested, multiple (or no) rows returned' },
      { code: 'PGRST204', message: "Could not find the 'x' column of 'courses' in the schema cache" },
    ]) {
      expect(describeError(error), error.code).toBe('Tente novamente mais tarde');
    }
  });

  it('words the two-factor code refusals of GoTrue', () => {
    expect(describeError({ code: 'mfa_verification_failed', status: 422, message: 'Invalid TOTP code entered' })).toBe('Código inválido. Confira o código no aplicativo e tente de novo.');
    expect(describeError({ code: 'mfa_challenge_expired', status: 422 })).toBe('O código expirou. Digite o código atual do aplicativo.');
  });

  it('says when to wait on a rate limit, from GoTrue (status) or Storage (statusCode)', () => {
    expect(describeError({ status: 429, message: 'Request rate limit reached' })).toBe('Muitas tentativas. Aguarde alguns minutos e tente de novo.');
    expect(describeError({ statusCode: '429', message: 'Too many requests' })).toBe('Muitas tentativas. Aguarde alguns minutos e tente de novo.');
  });

  it('passes the database’s own pt-BR refusals and plain messages through', () => {
    expect(describeError({ code: 'P0001', message: 'Apenas um anúncio por dia por escola.' })).toBe('Apenas um anúncio por dia por escola.');
    // Lesson discussions (issue 26): the DC codes come with HTTP 400 and their own pt-BR message.
    for (const [code, message] of [
      ['DC429', 'Você comentou muitas vezes em pouco tempo. Aguarde um minuto.'],
      ['DC410', 'Só é possível editar um comentário nos primeiros 15 minutos.'],
      ['DC400', 'Só é possível responder a um comentário principal, não a uma resposta.'],
    ]) {
      expect(describeError({ code, message, details: null, hint: null })).toBe(message);
    }
    for (const [code, message] of [
      ['22023', 'Escolha um período de 7d, 30d, 90d ou 12m.'],
      ['23514', 'O curso não é desta escola.'],
      ['PT409', 'O preço do curso mudou. Recarregue a página para ver o valor atual.'],
    ]) {
      expect(describeError({ code, message })).toBe(message);
    }
    expect(describeError(new Error('Curso não encontrado ou sem permissão para excluí-lo'))).toBe('Curso não encontrado ou sem permissão para excluí-lo');
    expect(describeError('texto')).toBe('texto');
    expect(describeError(null)).toBe('Tente novamente mais tarde');
  });

  it('says the server is unreachable for a failed fetch', () => {
    expect(describeError(new TypeError('Failed to fetch'))).toBe('Sem conexão com o servidor. Verifique sua internet e tente novamente.');
  });
});

it('errorMessage', () => {
  expect(errorMessage({ message: 'x' })).toBe('x');
  expect(errorMessage('y')).toBe('y');
  expect(errorMessage(null)).toBe('Erro desconhecido');
});
