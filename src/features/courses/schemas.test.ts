import { describe, expect, it } from 'vitest';
import { formatMoney } from '@/utils/format';
import { courseFormSchema, finalSlug, installmentPreview, normalizeSlug, parsePrice } from './schemas';

const valid = {
  title: 'Curso',
  slug: 'curso',
  description: '',
  purchase_url: '',
  price: '297,00',
  max_installments: 6,
  status: 'DRAFT' as const,
  total_lessons: 0,
  thumbnail_url: null,
  thumbnail_position: '50% 50%',
  banner_url: null,
  banner_position: '50% 50%',
};

function messages(values: Partial<typeof valid> | Record<string, unknown>) {
  const r = courseFormSchema.safeParse({ ...valid, ...values });
  return r.success ? [] : r.error.issues.map((i) => i.message);
}

describe('course form rules (SPEC §5/§9)', () => {
  it('lower-cases the slug and turns spaces into hyphens', () => {
    expect(normalizeSlug('Excel Avançado 2026')).toBe('excel-avancado-2026');
    expect(finalSlug('  Meu   Curso! ')).toBe('meu-curso');
    expect(courseFormSchema.parse({ ...valid, slug: 'Meu Curso' }).slug).toBe('meu-curso');
  });

  it('reads prices in R$ with comma or dot and at most two decimals', () => {
    expect(parsePrice('297,00')).toBe(297);
    expect(parsePrice('1.234,56')).toBe(1234.56);
    expect(parsePrice('19.9')).toBe(19.9);
    expect(parsePrice('-1')).toBeNaN();
    expect(parsePrice('1,999')).toBeNaN();
  });

  it('previews the installment value', () => {
    expect(installmentPreview(297, 6, formatMoney)).toBe('R$ 49,50 em 6 vezes');
    expect(installmentPreview(297, 1, formatMoney)).toBeNull();
    expect(installmentPreview(0, 6, formatMoney)).toBeNull();
  });

  it('requires title, slug, price and installments 1-12; purchase link as URL', () => {
    expect(messages({})).toEqual([]);
    expect(messages({ title: ' ' })).toContain('Título é obrigatório');
    expect(messages({ slug: '!!' })).toContain('Informe o endereço na web');
    expect(messages({ price: '' })).toContain('Preço é obrigatório');
    expect(messages({ price: 'abc' })).toContain('Informe um preço válido, com até 2 casas decimais (mínimo 0)');
    expect(messages({ max_installments: 13 })).toContain('Máximo de 12 parcelas');
    expect(messages({ max_installments: 0 })).toContain('Mínimo de 1 parcela');
    expect(messages({ total_lessons: -1 })).toContain('Mínimo 0');
    expect(messages({ purchase_url: 'pagina-de-vendas' })).toContain('Informe um link válido (https://...)');
  });
});
