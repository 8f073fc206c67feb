import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkoutSchema, installmentValue, missingFields, type CheckoutValues } from './schemas';

const filled: CheckoutValues = {
  method: 'PIX',
  name: 'Ana',
  email: 'ana@exemplo.com.br',
  cpf: '529.982.247-25',
  phone: '(11) 98888-7777',
  holderName: '',
  cardNumber: '',
  expiryMonth: '',
  expiryYear: '',
  ccv: '',
  postalCode: '',
  addressNumber: '',
  installments: '1',
};
const errorsOf = (values: CheckoutValues) => {
  const result = checkoutSchema.safeParse(values);
  return Object.fromEntries((result.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]));
};

describe('checkout form rules (SPEC §5)', () => {
  it("an empty buyer field is 'Campos obrigatórios', before the card", () => {
    const values = { ...filled, method: 'CREDIT_CARD' as const, cpf: '' };
    expect(missingFields(values, errorsOf(values))).toEqual({ title: 'Campos obrigatórios', description: 'Preencha nome, e-mail, CPF e telefone.' });
  });

  it("empty card fields are 'Dados do cartão obrigatórios' only for Cartão", () => {
    const card = { ...filled, method: 'CREDIT_CARD' as const };
    expect(missingFields(card, errorsOf(card))).toEqual({ title: 'Dados do cartão obrigatórios', description: 'Preencha todos os dados do cartão e do titular.' });
    expect(missingFields(filled, errorsOf(filled))).toBeNull();
  });

  it('a filled but wrong field is its own message, not a missing-fields toast', () => {
    const values = { ...filled, cpf: '111.111.111-11' };
    expect(errorsOf(values)).toEqual({ cpf: 'CPF inválido' });
    expect(missingFields(values, errorsOf(values))).toBeNull();
  });

  it('installments are the price divided, with two decimals', () => {
    expect(installmentValue(297, 6)).toBe(49.5);
    expect(installmentValue(100, 3)).toBe(33.33);
  });
});

describe('the card, checked before Asaas is called (issue 46)', () => {
  const card: CheckoutValues = {
    ...filled,
    method: 'CREDIT_CARD',
    holderName: 'ANA SOUZA',
    cardNumber: '5162 3062 1937 8829',
    expiryMonth: '05',
    expiryYear: '2031',
    ccv: '123',
    postalCode: '01310-100',
    addressNumber: '100',
  };
  afterEach(() => vi.useRealTimers());
  const today = (iso: string) => vi.useFakeTimers({ now: new Date(iso), toFake: ['Date'] });

  it('accepts a real card number, and the cards Asaas declines (their refusal comes from Asaas)', () => {
    expect(errorsOf(card)).toEqual({});
    for (const number of ['4111 1111 1111 1111', '5184 0197 4037 3151', '4916 5613 5824 0741', '3782 822463 10005']) {
      expect(errorsOf({ ...card, cardNumber: number }), number).toEqual({});
    }
  });

  it('refuses a number that fails the check digit or has the wrong length, in pt-BR beside the field', () => {
    expect(errorsOf({ ...card, cardNumber: '1234 5678 9012 3456' })).toEqual({ cardNumber: 'Número do cartão inválido. Confira os dígitos.' });
    expect(errorsOf({ ...card, cardNumber: '5162 3062 1937 8828' })).toEqual({ cardNumber: 'Número do cartão inválido. Confira os dígitos.' });
    expect(errorsOf({ ...card, cardNumber: '4111 1111 1111' })).toEqual({ cardNumber: 'Número do cartão inválido. Confira os dígitos.' });
    expect(errorsOf({ ...card, cardNumber: '' })).toEqual({ cardNumber: 'Informe o número do cartão' });
  });

  it('refuses an expiry in the past, a month out of 1-12 and a year too far ahead; the current month is still valid', () => {
    today('2026-11-28T12:00:00-03:00');
    expect(errorsOf({ ...card, expiryYear: '2020' })).toEqual({ expiryYear: 'Cartão vencido. Confira o ano de validade.' });
    expect(errorsOf({ ...card, expiryMonth: '10', expiryYear: '2026' })).toEqual({ expiryMonth: 'Cartão vencido. Confira o mês de validade.' });
    expect(errorsOf({ ...card, expiryMonth: '11', expiryYear: '2026' })).toEqual({});
    expect(errorsOf({ ...card, expiryMonth: '11', expiryYear: '26' })).toEqual({});
    expect(errorsOf({ ...card, expiryMonth: '13' })).toEqual({ expiryMonth: 'Mês inválido. Use de 01 a 12.' });
    expect(errorsOf({ ...card, expiryMonth: '0' })).toEqual({ expiryMonth: 'Mês inválido. Use de 01 a 12.' });
    expect(errorsOf({ ...card, expiryYear: '2099' })).toEqual({ expiryYear: 'Ano inválido. Confira a validade do cartão.' });
    expect(errorsOf({ ...card, expiryYear: '203' })).toEqual({ expiryYear: 'Ano inválido. Use 4 dígitos (ex.: 2030).' });
  });

  it('does not check card fields for PIX or Boleto', () => {
    expect(errorsOf({ ...card, method: 'PIX', cardNumber: '1234 5678 9012 3456', expiryYear: '2020' })).toEqual({});
  });
});
