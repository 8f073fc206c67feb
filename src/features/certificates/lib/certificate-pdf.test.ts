// @vitest-environment node
// The PDF as a reader sees it: its text read back with pdf.js, its page size, whether the logo is
// drawn. pdf.js runs in node here (no DOM needed).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { createCertificatePdf, loadLogo, type CertificatePdfInput } from './certificate-pdf';

const LOGO = readFileSync(path.resolve(import.meta.dirname, '../../../../supabase/seed-files/school-banners/5c000000-0000-4000-8000-000000000001/logo.png'));
const JPG = readFileSync(path.resolve(import.meta.dirname, '../../../../supabase/seed-files/school-banners/5c000000-0000-4000-8000-000000000001/banner.jpg'));

const input: CertificatePdfInput = {
  code: '7K2M-Q9XD-AB12-CD34-EF56-GH78',
  studentName: 'Joana Conceição Müller',
  courseTitle: 'Gestão Ágil de Projetos',
  schoolName: 'Escola Demo',
  completedAt: '2026-11-23T15:30:00Z',
  workloadHours: 12,
  issuedAt: '2026-11-23T16:00:00Z',
  verifyUrl: 'https://cursos.exemplo.com.br/certificado/7K2M-Q9XD-AB12-CD34-EF56-GH78',
  logoUrl: 'https://cdn.exemplo.com.br/logo.png',
  primaryColor: '#3b82f6',
  secondaryColor: '#8b5cf6',
};

const respond = (body: Uint8Array | string, status = 200) => (async () => new Response(body as BodyInit, { status })) as unknown as typeof fetch;

async function read(bytes: Uint8Array) {
  const doc = await pdfjs.getDocument({ data: bytes.slice(), verbosity: 0 }).promise;
  const page = await doc.getPage(1);
  const text = (await page.getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' ').replace(/\s+/g, ' ');
  const ops = await page.getOperatorList();
  return { pages: doc.numPages, view: page.view, text, images: ops.fnArray.filter((f) => f === pdfjs.OPS.paintImageXObject).length };
}

describe('certificate PDF', () => {
  it('is one A4 landscape page with the name, course, workload, date, code and verification URL', async () => {
    const pdf = await read(await createCertificatePdf(input, { fetchImpl: respond(LOGO) }));
    expect(pdf.pages).toBe(1);
    expect(pdf.view).toEqual([0, 0, 841.89, 595.28]);
    for (const part of [
      'Certificado de Conclusão',
      'Joana Conceição Müller',
      'Gestão Ágil de Projetos',
      'Carga horária: 12 horas',
      'Concluído em 23 de novembro de 2026',
      '7K2M-Q9XD-AB12-CD34-EF56-GH78',
      'https://cursos.exemplo.com.br/certificado/7K2M-Q9XD-AB12-CD34-EF56-GH78',
      'Escola Demo',
    ]) {
      expect(pdf.text).toContain(part);
    }
    expect(pdf.images).toBe(1);
  });

  it('embeds a JPEG logo too', async () => {
    expect((await read(await createCertificatePdf(input, { fetchImpl: respond(JPG) }))).images).toBe(1);
  });

  it('goes on without the logo when it is missing, fails, is another format or is corrupt', async () => {
    const failing: (typeof fetch)[] = [
      (async () => {
        throw new TypeError('Failed to fetch');
      }) as unknown as typeof fetch,
      respond('não encontrado', 404),
      respond(new Uint8Array([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50])), // WEBP
      respond(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4])), // a PNG signature, then garbage
    ];
    for (const fetchImpl of failing) {
      const pdf = await read(await createCertificatePdf(input, { fetchImpl }));
      expect(pdf.images).toBe(0);
      expect(pdf.text).toContain('Joana Conceição Müller');
    }
    const none = await read(await createCertificatePdf({ ...input, logoUrl: null }));
    expect(none.images).toBe(0);
    expect(await loadLogo(null)).toBeNull();
  });

  it('writes names outside WinAnsi without failing: accents dropped where needed, "?" for the rest', async () => {
    const pdf = await read(await createCertificatePdf({ ...input, studentName: 'Zoë Żółć 李 😀', logoUrl: null }));
    expect(pdf.text).toContain('Zoë Zó?c ? ?');
  });

  it('fits a very long name and course title on the page (smaller, wrapped, at most two lines each)', async () => {
    const long = { ...input, logoUrl: null, studentName: 'Maria Aparecida '.repeat(8).trim(), courseTitle: 'Formação Completa em '.repeat(12).trim(), primaryColor: '#facc15' };
    const pdf = await read(await createCertificatePdf(long));
    expect(pdf.pages).toBe(1);
    expect(pdf.text).toContain('Maria Aparecida Maria');
    expect(pdf.text).toContain('…');
    expect(pdf.text).toContain('7K2M-Q9XD-AB12-CD34-EF56-GH78');
  });
});
