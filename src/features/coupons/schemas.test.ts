import { describe, expect, it } from 'vitest';
import {
  couponFormSchema,
  couponRowFromForm,
  dayInSaoPaulo,
  validFromOf,
  validUntilOf,
  type CouponFormInput,
} from './schemas';

const valid: CouponFormInput = {
  code: 'bemvindo20',
  kind: 'percent',
  amount: '20',
  valid_from: '',
  valid_until: '',
  max_uses: '',
  max_uses_per_buyer: '',
  all_courses: 'all',
  course_ids: [],
  is_active: true,
  turma_id: '',
};
const messages = (v: Partial<CouponFormInput>) => {
  const r = couponFormSchema.safeParse({ ...valid, ...v });
  return r.success ? [] : r.error.issues.map((i) => i.message);
};

describe('coupon form rules', () => {
  it('validity days are São Paulo days: from 00:00 to 23:59:59.999, and back', () => {
    expect(validFromOf('2026-11-01')).toBe('2026-11-01T03:00:00.000Z');
    expect(validUntilOf('2026-11-30')).toBe('2026-12-01T02:59:59.999Z');
    expect(validUntilOf('2026-12-31')).toBe('2027-01-01T02:59:59.999Z');
    expect(validFromOf('')).toBeNull();
    expect(dayInSaoPaulo('2026-12-01T02:59:59.999Z')).toBe('2026-11-30');
    expect(dayInSaoPaulo('2026-11-01T03:00:00.000Z')).toBe('2026-11-01');
    expect(dayInSaoPaulo(null)).toBe('');
  });

  it('the row: capitals, numbers for amounts and limits, null for no limit or date', () => {
    const values = couponFormSchema.parse({
      ...valid,
      kind: 'fixed',
      amount: '1.234,50',
      max_uses: '10',
      valid_until: '2026-11-30',
      all_courses: 'selected',
      course_ids: ['c1'],
    });
    expect(couponRowFromForm(values)).toEqual({
      code: 'BEMVINDO20',
      kind: 'fixed',
      amount: 1234.5,
      valid_from: null,
      valid_until: '2026-12-01T02:59:59.999Z',
      max_uses: 10,
      max_uses_per_buyer: null,
      all_courses: false,
      is_active: true,
      turma_id: null,
    });
  });

  it('says in pt-BR what the database would refuse', () => {
    expect(messages({ code: 'ab' })).toEqual(['Use pelo menos 3 caracteres']);
    expect(messages({ code: 'promoção' })).toEqual(['Use só letras sem acento, números, hífen (-) e sublinhado (_)']);
    expect(messages({ amount: '0' })).toEqual(['A porcentagem vai de 0,01 a 100']);
    expect(messages({ amount: '100' })).toEqual([]);
    expect(messages({ kind: 'fixed', amount: '0,00' })).toEqual(['Informe um valor maior que zero']);
    expect(messages({ amount: '10,555' })).toEqual(['Informe um número com até 2 casas decimais (ex.: 20 ou 49,90)']);
    expect(messages({ valid_from: '2026-11-30', valid_until: '2026-11-01' })).toEqual([
      'A data final deve ser igual ou depois da inicial',
    ]);
    expect(messages({ valid_from: '2026-11-30', valid_until: '2026-11-30' })).toEqual([]);
    expect(messages({ max_uses: '0' })).toEqual([
      'Informe um número inteiro a partir de 1, ou deixe vazio para não limitar',
    ]);
    expect(messages({ max_uses: '5', max_uses_per_buyer: '6' })).toEqual([
      'O limite por comprador não pode passar do limite total',
    ]);
    expect(messages({ all_courses: 'selected' })).toEqual(['Selecione pelo menos um curso']);
  });
});
