import { describe, expect, it } from 'vitest';
import { cn } from './cn';

describe('cn', () => {
  it('joins conditional classes', () => {
    const off = Math.random() > 2;
    expect(cn('a', off && 'b', { c: true, d: false })).toBe('a c');
  });
  it('lets later classes of the same group and variant win', () => {
    expect(cn('p-6 shadow-sm text-sm size-9', 'shadow-lg text-3xl size-28')).toBe('p-6 shadow-lg text-3xl size-28');
    expect(cn('inline-flex h-10', 'grid')).toBe('h-10 grid');
    expect(cn('pt-0', 'pt-6')).toBe('pt-6');
  });
  it('keeps different variants and unrelated utilities', () => {
    expect(cn('shadow-sm lg:shadow-lg', 'text-white text-sm')).toBe('shadow-sm lg:shadow-lg text-white text-sm');
    expect(cn('shadow-sm', 'shadow-black/20')).toBe('shadow-sm shadow-black/20');
  });
});
