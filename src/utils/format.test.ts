import { describe, expect, it } from 'vitest';
import { formatDate, formatMoney, initials, isValidCpf, isValidPhone, maskCpf, maskPhone, minutesFromSeconds, whatsappMessageUrl, whatsappUrl } from './format';

describe('formatMoney', () => {
  it('writes reais with comma decimals and dot thousands', () => {
    expect(formatMoney(1234.56)).toBe('R$ 1.234,56');
    expect(formatMoney('99.9')).toBe('R$ 99,90');
    expect(formatMoney(0)).toBe('R$ 0,00');
    expect(formatMoney(null)).toBe('R$ 0,00');
  });

  it("writes what Intl's pt-BR BRL writes (NBSP as a space), halves and negatives included", () => {
    const intl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
    // Whole cents, half cents (24.975), divisions as installments make them, large and tiny amounts.
    let seed = 45;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const values = [
      0, -0, -0.001, 1.005, 0.125, 24.975, 99.9 / 4, 297 / 12, 100 / 3, -1234.5, 123456789.995, 5e-7, 1e21, 2 ** 53 + 2,
      ...Array.from({ length: 3000 }, () => Math.round(random() * 10_000_000) / 1000 - 2000),
      ...Array.from({ length: 3000 }, () => (random() * 1e9) / Math.ceil(random() * 12)),
    ];
    for (const v of values) expect(formatMoney(v), String(v)).toBe(intl.format(v).replace(/\u00a0/g, ' '));
  });
});

describe('formatDate', () => {
  it('writes dd/mm/aaaa', () => {
    expect(formatDate('2024-03-05T15:00:00Z')).toBe('05/03/2024');
    expect(formatDate(new Date(Date.UTC(2023, 11, 31, 12)))).toBe('31/12/2023');
  });
  it('uses Brazil time for instants near midnight UTC', () => {
    expect(formatDate('2024-01-01T01:00:00Z')).toBe('31/12/2023');
  });
  it('returns empty text for missing or invalid input', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
});

describe('minutesFromSeconds', () => {
  it('rounds to whole minutes', () => {
    expect(minutesFromSeconds(600)).toBe(10);
    expect(minutesFromSeconds(125)).toBe(2);
    expect(minutesFromSeconds(150)).toBe(3);
    expect(minutesFromSeconds(null)).toBe(0);
    expect(minutesFromSeconds(-5)).toBe(0);
  });
});

describe('CPF', () => {
  it('masks progressively', () => {
    expect(maskCpf('123')).toBe('123');
    expect(maskCpf('1234')).toBe('123.4');
    expect(maskCpf('1234567')).toBe('123.456.7');
    expect(maskCpf('52998224725')).toBe('529.982.247-25');
    expect(maskCpf('529.982.247-25999')).toBe('529.982.247-25');
  });
  it('checks the two check digits', () => {
    expect(isValidCpf('529.982.247-25')).toBe(true);
    expect(isValidCpf('52998224725')).toBe(true);
    expect(isValidCpf('529.982.247-24')).toBe(false);
    expect(isValidCpf('111.111.111-11')).toBe(false);
    expect(isValidCpf('123')).toBe(false);
  });
});

describe('phone', () => {
  it('masks mobiles and landlines', () => {
    expect(maskPhone('11')).toBe('(11');
    expect(maskPhone('11987')).toBe('(11) 987');
    expect(maskPhone('1133334444')).toBe('(11) 3333-4444');
    expect(maskPhone('11987654321')).toBe('(11) 98765-4321');
    expect(maskPhone('5511900001111')).toBe('(11) 90000-1111');
  });
  it('validates', () => {
    expect(isValidPhone('(11) 98765-4321')).toBe(true);
    expect(isValidPhone('(11) 3333-4444')).toBe(true);
    expect(isValidPhone('(11) 8765-432')).toBe(false);
    expect(isValidPhone('(11) 88765-4321')).toBe(false);
    expect(isValidPhone('(01) 98765-4321')).toBe(false);
  });
});

it('builds WhatsApp links from digits only', () => {
  expect(whatsappUrl('+55 (11) 99999-0000')).toBe('https://wa.me/5511999990000');
});

it('initials', () => {
  expect(initials('Maria da Silva')).toBe('MS');
  expect(initials('ana')).toBe('A');
  expect(initials('')).toBe('?');
});

it('whatsappMessageUrl: a Brazilian number gets 55, the message is encoded, a number that cannot be WhatsApp gives null', () => {
  expect(whatsappMessageUrl('(11) 98765-4321', 'Olá, Ana! R$ 10 & mais')).toBe('https://wa.me/5511987654321?text=Ol%C3%A1%2C%20Ana!%20R%24%2010%20%26%20mais');
  expect(whatsappMessageUrl('+55 11 98765-4321', 'x')).toBe('https://wa.me/5511987654321?text=x');
  expect(whatsappMessageUrl('1234', 'x')).toBeNull();
  expect(whatsappMessageUrl(null, 'x')).toBeNull();
});
