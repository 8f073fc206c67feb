import { describe, expect, it } from 'vitest';
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
