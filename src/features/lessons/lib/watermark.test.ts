import { describe, expect, it, vi } from 'vitest';
import { maskCpf, nextMoveDelay, randomSpot, watermarkText } from './watermark';

describe('maskCpf', () => {
  it('shows the middle six digits only, formatted or not', () => {
    expect(maskCpf('123.456.789-09')).toBe('***.456.789-**');
    expect(maskCpf('12345678909')).toBe('***.456.789-**');
    expect(maskCpf(' 987.654.321-00 ')).toBe('***.654.321-**');
  });

  it('is null without a CPF of 11 digits', () => {
    expect(maskCpf(null)).toBeNull();
    expect(maskCpf(undefined)).toBeNull();
    expect(maskCpf('')).toBeNull();
    expect(maskCpf('123.456.789')).toBeNull();
  });
});

describe('watermarkText', () => {
  it('is the name and the masked CPF', () => {
    expect(watermarkText({ name: 'Lucas Aluno', cpf: '123.456.789-09', email: 'aluno@escola.com' })).toBe('Lucas Aluno · ***.456.789-**');
  });

  it('uses the e-mail without a CPF, and once without a name', () => {
    expect(watermarkText({ name: 'Ana', cpf: null, email: 'ana@escola.com' })).toBe('Ana · ana@escola.com');
    expect(watermarkText({ name: '  ', cpf: null, email: 'ana@escola.com' })).toBe('ana@escola.com');
  });
});

describe('where and when it moves', () => {
  it('waits 15 to 30 seconds, and stays 3 to 97% across each axis', () => {
    const random = vi.spyOn(Math, 'random');
    random.mockReturnValue(0);
    expect(nextMoveDelay()).toBe(15_000);
    expect(randomSpot()).toEqual({ x: 3, y: 3 });
    random.mockReturnValue(0.999999);
    expect(nextMoveDelay()).toBeLessThan(30_000);
    expect(randomSpot().x).toBeLessThan(97);
    random.mockRestore();
  });
});
