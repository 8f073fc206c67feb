import { describe, expect, it } from 'vitest';
import { certificateAvailable, certificateFileName, formatLongDate, verificationUrl, workloadText } from './certificates';

describe('certificate text', () => {
  it('writes the completion date in pt-BR, in Brazil’s time zone', () => {
    expect(formatLongDate('2026-11-23T15:30:00Z')).toBe('23 de novembro de 2026');
    // 01:00 UTC on the 24th is still the 23rd in São Paulo.
    expect(formatLongDate('2026-11-24T01:00:00Z')).toBe('23 de novembro de 2026');
    expect(formatLongDate('2026-03-01T12:00:00Z')).toBe('1 de março de 2026');
    expect(formatLongDate('não é data')).toBe('');
    expect(formatLongDate(null)).toBe('');
  });

  it('says the workload in hours, singular and plural', () => {
    expect(workloadText(1)).toBe('1 hora');
    expect(workloadText(12)).toBe('12 horas');
  });

  it('builds the verification URL and the file name', () => {
    expect(verificationUrl('https://cursos.exemplo.com.br/', '7K2M-Q9XD')).toBe('https://cursos.exemplo.com.br/certificado/7K2M-Q9XD');
    expect(certificateFileName('excel-essencial')).toBe('certificado-excel-essencial.pdf');
  });

  it('offers the certificate only with certificates on, an active enrollment and every lesson completed', () => {
    const done = { enabled: true, access: 'active' as const, completed: 6, total: 6 };
    expect(certificateAvailable(done)).toBe(true);
    expect(certificateAvailable({ ...done, enabled: false })).toBe(false);
    expect(certificateAvailable({ ...done, completed: 5 })).toBe(false);
    expect(certificateAvailable({ ...done, completed: 0, total: 0 })).toBe(false);
    for (const access of ['none', 'paused', 'expired'] as const) expect(certificateAvailable({ ...done, access })).toBe(false);
  });
});
