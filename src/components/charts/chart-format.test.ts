import { describe, expect, it } from 'vitest';
import { bucketLabel, changePercent, changeText, csvNumber, seriesSummary } from './chart-format';

describe('chart texts', () => {
  it('labels a bucket in pt-BR: the day, the week by its Monday, the month with its year', () => {
    expect(bucketLabel('2026-11-26', 'day')).toBe('26/11');
    expect(bucketLabel('2026-11-24', 'week')).toBe('semana de 24/11');
    expect(bucketLabel('2026-11-24', 'week', { short: true })).toBe('24/11');
    expect(bucketLabel('2026-11-01', 'month')).toBe('nov/2026');
    expect(bucketLabel('2027-01-01', 'month', { short: true })).toBe('jan');
    // A calendar date: no time zone moves the 1st into the previous month.
    expect(bucketLabel('2026-03-01', 'month')).toBe('mar/2026');
  });

  it('says the change against the previous period, and "—" when the previous had nothing', () => {
    expect(changeText(112, 100)).toBe('+12% vs. período anterior');
    expect(changeText(95, 100)).toBe('-5% vs. período anterior');
    expect(changeText(100, 100)).toBe('0% vs. período anterior');
    expect(changeText(1234, 1)).toBe('+123.300% vs. período anterior');
    expect(changeText(7, 0)).toBe('— vs. período anterior');
    expect(changePercent(0, 0)).toBe('—');
  });

  it('writes numbers for a spreadsheet in pt-BR (decimal comma, no thousands separator)', () => {
    expect(csvNumber(1234.5, 2)).toBe('1234,50');
    expect(csvNumber(42)).toBe('42');
  });

  it('summarises a series in words: total, change and the largest bucket', () => {
    const points = [
      { start: '2026-11-24', value: 2 },
      { start: '2026-11-25', value: 8 },
      { start: '2026-11-26', value: 0 },
    ];
    expect(seriesSummary({ title: 'Novos alunos', points, unit: 'day', total: '10', period: 'nos últimos 7 dias', change: '+25% vs. período anterior', valueText: (v) => `${v} novos alunos` })).toBe(
      'Novos alunos: 10 nos últimos 7 dias; +25% vs. período anterior; maior valor em 25/11: 8 novos alunos.',
    );
    expect(seriesSummary({ title: 'Receita', points: [{ start: '2026-11-01', value: 0 }], unit: 'month', total: 'R$ 0,00', period: 'nos últimos 12 meses', valueText: String })).toBe(
      'Receita: R$ 0,00 nos últimos 12 meses.',
    );
  });
});
