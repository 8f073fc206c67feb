import { describe, expect, it } from 'vitest';
import { settingsErrorMessage } from './errors';

describe('settingsErrorMessage', () => {
  it('says the webhook token constraint in pt-BR', () => {
    const error = { code: '23514', message: 'new row for relation "integration_secrets" violates check constraint "integration_secrets_webhook_token_min_length"' };
    expect(settingsErrorMessage(error)).toBe('O token do webhook deve ter pelo menos 32 caracteres (exigência do Asaas).');
  });

  it('passes any other message through', () => {
    expect(settingsErrorMessage({ message: 'not allowed' })).toBe('not allowed');
    expect(settingsErrorMessage(null)).toBe('Erro desconhecido');
  });
});
