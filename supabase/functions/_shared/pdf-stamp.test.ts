// `deno test` (npm test runs it; npm run test:functions alone): the licence line and the characters the
// standard font can carry. The stamped files themselves are read back with pdf.js in
// tests/integration/product/material-stamp.test.ts.
import assert from 'node:assert/strict';
import { PDFDocument, StandardFonts } from 'npm:pdf-lib@1.17.1';
import { hasPdfHeader, isPdf } from './lesson-materials.ts';
import { fitToFont, licenceLine, saoPauloDate, StampError, stampPdf } from './pdf-stamp.ts';

const bytes = (s: string) => new TextEncoder().encode(s);

Deno.test('the date is the day in São Paulo, dd/mm/aaaa', () => {
  // 02:30 UTC is still the day before in São Paulo (UTC-3).
  assert.equal(saoPauloDate(new Date('2026-11-29T02:30:00Z')), '28/11/2026');
  assert.equal(saoPauloDate(new Date('2026-11-29T03:30:00Z')), '29/11/2026');
});

Deno.test('the licence line names the person, the e-mail and the day; the e-mail stands in for a missing name', () => {
  const at = new Date('2026-11-28T15:00:00Z');
  assert.equal(licenceLine({ name: ' Lucas Aluno ', email: 'aluno@escola.com', at }), 'Licenciado para Lucas Aluno · aluno@escola.com · 28/11/2026');
  assert.equal(licenceLine({ name: '', email: 'aluno@escola.com', at }), 'Licenciado para aluno@escola.com · aluno@escola.com · 28/11/2026');
});

Deno.test('Portuguese stays as it is; other letters lose their accents or become ?; control characters go', async () => {
  const font = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
  assert.equal(fitToFont('João Conceição Ávila · Gonçalves Müller', font), 'João Conceição Ávila · Gonçalves Müller');
  assert.equal(fitToFont('Çağrı Łukasz 李 😀', font), 'Çagr? ?ukasz ? ?');
  assert.equal(fitToFont('Ana\u0000\u0007 Maria\u0085', font), 'Ana Maria');
  // Whatever comes out, the font encodes it (drawing would throw otherwise).
  font.encodeText(fitToFont('Ωμέγα Ведомость ǅemal', font));
});

Deno.test('a PDF by its bytes: a %PDF- header anywhere in the first 1024 bytes; by its type otherwise', () => {
  assert.equal(hasPdfHeader(bytes('%PDF-1.7\n')), true);
  assert.equal(hasPdfHeader(bytes(`${'x'.repeat(1000)}%PDF-1.4`)), true);
  assert.equal(hasPdfHeader(bytes(`${'x'.repeat(1020)}%PDF-1.4`)), false);
  assert.equal(hasPdfHeader(bytes('PK\u0003\u0004')), false);
  assert.equal(isPdf({ contentType: 'application/pdf', size: 0, head: new Uint8Array() }), true);
  assert.equal(isPdf({ contentType: 'application/msword', size: 9, head: bytes('%PDF-1.7\n') }), true);
  assert.equal(isPdf({ contentType: 'application/msword', size: 4, head: bytes('PK\u0003\u0004') }), false);
});

Deno.test('refuses what it cannot stamp: no pages, too many pages, not a PDF', async () => {
  const empty = await (await PDFDocument.create()).save({ addDefaultPage: false });
  await assert.rejects(stampPdf(empty, { name: 'A', email: 'a@b.c', at: new Date() }, { maxPages: 5 }), (e) => e instanceof StampError && e.reason === 'unreadable');
  const doc = await PDFDocument.create();
  for (let i = 0; i < 3; i++) doc.addPage();
  const three = await doc.save();
  await assert.rejects(stampPdf(three, { name: 'A', email: 'a@b.c', at: new Date() }, { maxPages: 2 }), (e) => e instanceof StampError && e.reason === 'too-many-pages');
  const stamped = await stampPdf(three, { name: 'A', email: 'a@b.c', at: new Date() }, { maxPages: 3 });
  assert.equal((await PDFDocument.load(stamped)).getPageCount(), 3);
  await assert.rejects(stampPdf(bytes('%PDF-1.7 lixo'), { name: 'A', email: 'a@b.c', at: new Date() }, { maxPages: 3 }), (e) => e instanceof StampError && e.reason === 'unreadable');
});
