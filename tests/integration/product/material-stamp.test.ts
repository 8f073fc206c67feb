// Issue 39, "the student's name on every page": a PDF material leaves stamped "Licenciado para <nome>
// · <e-mail> · <data>" on every page (download-material), and a student never receives the unstamped
// file: sign-lesson-file refuses to sign a PDF of lesson-materials for a student, deciding by the stored
// type and the bytes, not the name. Other files download as before. What a reader sees is checked in
// the PDF's text layer with pdf.js, as the certificate tests read theirs.
import { createDeflate } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { degrees, PDFDocument, StandardFonts } from 'pdf-lib';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { SupabaseClient } from '@supabase/supabase-js';
import { getLessonMaterial } from '../../../src/concepts/lesson-files.ts';
import { openMaterialFile, signMaterial } from '../../../src/features/lessons/api/queries.ts';
import { ANON_KEY, useBackend } from '../harness.ts';
import { COURSE, EMAIL, LESSON, OBJECT, SCHOOL, USER } from '../rls/seed.ts';

const backend = useBackend();
const aluno = backend.signedIn('aluno');
const expirado = backend.signedIn('expirado');
const alunoRival = backend.signedIn('alunoRival');
const admin = backend.signedIn('adminDemo');

const DIR = `${SCHOOL.demo}/${COURSE.excel}/${LESSON.excelUpload}`;
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A PDF of `pages` pages of text; `rotated` turns the second page a quarter (/Rotate 90). */
async function makePdf(pages: number, { rotated = false, padTo = 0 } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.TimesRoman);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`Apostila, página ${i}`, { x: 72, y: 760, size: 18, font });
    if (rotated && i === 2) page.setRotation(degrees(90));
  }
  // Bulk the file up with an unused stream (a scanned page's weight, for the size limit).
  if (padTo) doc.context.register(doc.context.stream(new Uint8Array(padTo)));
  return doc.save();
}

/**
 * A small PDF whose object stream inflates to `inflatedMb` MB of zeros (deflate packs them ~1000:1), as the
 * outside attacker built it: pdf-lib inflates every object stream when it loads a document.
 */
async function inflateBomb(inflatedMb: number): Promise<Buffer> {
  const base = Buffer.from(await makePdf(1).then(async (b) => (await PDFDocument.load(b)).save({ useObjectStreams: false })));
  const compressed = await new Promise<Buffer>((resolve, reject) => {
    const deflate = createDeflate({ level: 9 });
    const out: Buffer[] = [];
    deflate.on('data', (c: Buffer) => out.push(c));
    deflate.on('end', () => resolve(Buffer.concat(out)));
    deflate.on('error', reject);
    deflate.write(Buffer.from('90 0 << /Bomb true >>'));
    const zeros = Buffer.alloc(16 * 1024 * 1024);
    let left = inflatedMb / 16;
    const pump = () => {
      while (left-- > 0) if (!deflate.write(zeros)) return void deflate.once('drain', pump);
      deflate.end();
    };
    pump();
  });
  const cut = base.lastIndexOf(Buffer.from('xref'));
  const stream = Buffer.concat([
    Buffer.from(`99 0 obj\n<< /Type /ObjStm /N 1 /First 5 /Filter /FlateDecode /Length ${compressed.length} >>\nstream\n`),
    compressed,
    Buffer.from('\nendstream\nendobj\n'),
  ]);
  return Buffer.concat([base.subarray(0, cut), stream, base.subarray(cut)]);
}

/**
 * A 2 KB PDF whose page tree lists the same child twice at every one of `depth` levels, as the second outside
 * attacker built it (finding 20): a walk without memory visits 2^depth pages. `cycle`: the deepest /Pages
 * node lists the root again instead of a page.
 */
function repeatedPageTree(depth: number, { cycle = false } = {}): Buffer {
  const objects = [`<< /Type /Catalog /Pages 2 0 R >>`];
  for (let k = 0; k < depth; k++) {
    const kid = cycle && k === depth - 1 ? 2 : 3 + k;
    objects.push(`<< /Type /Pages /Kids [${kid} 0 R ${kid} 0 R] /Count 2 >>`);
  }
  objects.push(`<< /Type /Page /Parent ${1 + depth} 0 R /MediaBox [0 0 300 200] >>`);
  let body = '%PDF-1.4\n';
  const offsets = objects.map((object, i) => {
    const at = body.length;
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
    return at;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A spreadsheet as Excel writes it: a zip (the control: any file that is not a PDF). */
const XLSX = Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.from('[Content_Types].xml planilha de exercícios'.repeat(20))]);

/** A material of the lesson: its file stored, and the material that holds it (a student is signed and
 * stamped only files a material holds). */
async function upload(name: string, bytes: Uint8Array | Buffer, contentType: string): Promise<string> {
  const path = `${DIR}/${name}`;
  const { error } = await backend.service().storage.from('lesson-materials').upload(path, bytes, { contentType, upsert: true });
  if (error) throw error;
  await backend.sql(
    `insert into public.materials (course_id, lesson_id, title, type, file_path) select $1, $2, $3, 'OTHER', $4
      where not exists (select 1 from public.materials where file_path = $4)`,
    [COURSE.excel, LESSON.excelUpload, name, path],
  );
  return path;
}

/** The PDF's text, page by page, as a reader's search finds it. */
async function pagesText(bytes: Uint8Array): Promise<string[]> {
  const doc = await pdfjs.getDocument({ data: bytes.slice(), verbosity: 0 }).promise;
  const texts: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const items = (await (await doc.getPage(n)).getTextContent()).items;
    texts.push(items.map((i) => ('str' in i ? i.str : '')).join(' ').replace(/\s+/g, ' '));
  }
  return texts;
}

/** Where the licence line sits as the page is shown (rotation applied): its direction and distance from the bottom. */
async function stampPlacement(bytes: Uint8Array, pageNumber: number) {
  const doc = await pdfjs.getDocument({ data: bytes.slice(), verbosity: 0 }).promise;
  const page = await doc.getPage(pageNumber);
  const viewport = page.getViewport({ scale: 1 });
  const item = (await page.getTextContent()).items.find((i) => 'str' in i && i.str.startsWith('Licenciado para'));
  if (!item || !('transform' in item)) throw new Error('no licence line');
  const [a, b, , , x, y] = pdfjs.Util.transform(viewport.transform, item.transform) as number[];
  return { horizontal: Math.abs(b!) < 0.01 && a! > 0, fromBottom: viewport.height - y!, x: x!, width: viewport.width, rotation: viewport.rotation };
}

/** download-material's raw answer for a caller holding `jwt` (or none). */
function downloadAs(jwt: string | null, path: string) {
  return fetch(`${backend.url}/functions/v1/download-material`, {
    method: 'POST',
    headers: { apikey: ANON_KEY, 'Content-Type': 'application/json', ...(jwt ? { Authorization: `Bearer ${jwt}` } : {}) },
    body: JSON.stringify({ path }),
  });
}

const jwtOf = async (client: SupabaseClient) => (await client.auth.getSession()).data.session!.access_token;

/** Today in São Paulo, as the stamp writes it (both sides of a midnight the test may straddle). */
const today = () => new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo' }).format(new Date());

describe('a PDF material downloaded by a student', () => {
  it('carries "Licenciado para <nome> · <e-mail> · <data>" in the text layer of every page, upright on a rotated page', async () => {
    const path = await upload('1732700000000-apostila-completa.pdf', await makePdf(3, { rotated: true }), 'application/pdf');
    const before = today();
    const got = await openMaterialFile(aluno, { file_path: path, type: 'PDF' });
    expect('file' in got).toBe(true);
    if (!('file' in got)) return;
    expect(got.name).toBe('apostila-completa.pdf');
    const bytes = new Uint8Array(await got.file.arrayBuffer());
    const pages = await pagesText(bytes);
    expect(pages).toHaveLength(3);
    for (const [n, text] of pages.entries()) {
      expect(text, `page ${n + 1}`).toContain(EMAIL.aluno);
      expect(text, `page ${n + 1}`).toMatch(new RegExp(`Licenciado para Lucas Aluno · ${EMAIL.aluno.replace(/\./g, '\\.')} · (${before}|${today()})`));
      expect(text, `page ${n + 1}`).toContain(`Apostila, página ${n + 1}`);
    }
    // As the reader shows each page: left to right, along the bottom edge, inside the page.
    for (const n of [1, 2]) {
      const at = await stampPlacement(bytes, n);
      expect(at.horizontal, `page ${n}`).toBe(true);
      expect(at.fromBottom, `page ${n}`).toBeGreaterThan(0);
      expect(at.fromBottom, `page ${n}`).toBeLessThan(30);
      expect(at.x, `page ${n}`).toBeGreaterThan(0);
    }
    expect((await stampPlacement(bytes, 2)).rotation).toBe(90);
  });

  it('the seeded apostila too, with the original name in Content-Disposition; the file is the stamped one, not the original', async () => {
    const res = await downloadAs(await jwtOf(aluno), OBJECT.lessonPdf);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain('filename="apostila-formulas.pdf"');
    expect(res.headers.get('cache-control')).toContain('no-store');
    const bytes = new Uint8Array(await res.arrayBuffer());
    const [text] = await pagesText(bytes);
    expect(text).toContain('Apostila - Formulas Basicas no Excel');
    expect(text).toContain(`Licenciado para Lucas Aluno · ${EMAIL.aluno}`);
  });

  it('a name outside the standard font still downloads: accents dropped where that helps, the e-mail intact', async () => {
    await backend.sql(`update public.profiles set name = $2 where id = $1`, [USER.aluno, 'Çağrı Öztürk Łukasz 李']);
    try {
      const res = await downloadAs(await jwtOf(aluno), OBJECT.lessonPdf);
      expect(res.status).toBe(200);
      const [text] = await pagesText(new Uint8Array(await res.arrayBuffer()));
      expect(text).toContain(`Licenciado para Çagr? Öztürk ?ukasz ? · ${EMAIL.aluno}`);
    } finally {
      await backend.sql(`update public.profiles set name = 'Lucas Aluno' where id = $1`, [USER.aluno]);
    }
  });
});

describe('the original file is never handed to a student', () => {
  it('sign-lesson-file refuses a PDF material to the student, by its type or its bytes; no byte of the original comes back', async () => {
    const original = await makePdf(1);
    // The same PDF uploaded as a spreadsheet, under a spreadsheet's name: its bytes still say PDF.
    const disguised = await upload('1732700000001-planilha.xlsx', original, XLSX_TYPE);
    for (const path of [OBJECT.lessonPdf, disguised]) {
      const refused = await aluno.functions.invoke('sign-lesson-file', { body: { bucket: 'lesson-materials', path, expiresIn: 60 } });
      expect(refused.data, path).toBeNull();
      expect(refused.response?.status, path).toBe(403);
      const body = (await (refused.error as { context: Response }).context.json()) as Record<string, unknown>;
      expect(body.download).toBe('download-material');
      expect(JSON.stringify(body)).not.toContain('/storage/v1/object/sign');
      await expect(signMaterial(aluno, path)).rejects.toThrow('Este PDF é baixado com o seu nome');
      // Nor straight from Storage.
      expect((await aluno.storage.from('lesson-materials').download(path)).data, path).toBeNull();
      expect((await aluno.storage.from('lesson-materials').createSignedUrl(path, 60)).data, path).toBeNull();
    }
    // The page's own call gets the disguised PDF stamped anyway (sign-lesson-file sends it on).
    const got = await openMaterialFile(aluno, { file_path: disguised, type: 'SHEET' });
    expect('file' in got && (await pagesText(new Uint8Array(await got.file.arrayBuffer())))[0]).toContain(EMAIL.aluno);
  });

  it('control: a spreadsheet still downloads as it is, through a signed URL; download-material says it is not a PDF', async () => {
    const path = await upload('1732700000002-exercicios.xlsx', XLSX, XLSX_TYPE);
    const got = await openMaterialFile(aluno, { file_path: path, type: 'SHEET' });
    expect('url' in got).toBe(true);
    const res = await fetch((got as { url: string }).url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(XLSX);
    const notPdf = await downloadAs(await jwtOf(aluno), path);
    expect(notPdf.status).toBe(415);
    expect(await notPdf.json()).toMatchObject({ error: 'Este material não é um PDF' });
    // A spreadsheet the school named .pdf: the page asks download-material first, then signs it.
    const misnamed = await upload('1732700000003-exercicios.pdf', XLSX, XLSX_TYPE);
    const opened = await getLessonMaterial(aluno, misnamed, { looksLikePdf: true });
    expect('url' in opened && Buffer.from(await (await fetch(opened.url)).arrayBuffer())).toEqual(XLSX);
  });

  it('control: staff still get the original PDF from sign-lesson-file', async () => {
    const url = await signMaterial(admin, OBJECT.lessonPdf);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    const [text] = await pagesText(new Uint8Array(await res.arrayBuffer()));
    expect(text).not.toContain('Licenciado para');
  });

  it('another school’s student, an expired enrollment, a pending password change: 404 and no bytes; anonymous: 401', async () => {
    const outsiders: [string, SupabaseClient][] = [
      ['another school', alunoRival],
      ['expired enrollment', expirado],
    ];
    const pending = await backend.signedInAccount({ name: 'Pedro Pendente', school: SCHOOL.demo });
    await backend.sql(`insert into public.enrollments (user_id, course_id, status) values ($1, $2, 'ACTIVE')`, [pending.id, COURSE.excel]);
    // Control first: enrolled, the account downloads the stamped PDF...
    expect((await downloadAs(await jwtOf(pending.client), OBJECT.lessonPdf)).status).toBe(200);
    // ...until a password change is pending (an initial or reset password others may know).
    await backend.sql(`update public.profiles set must_change_password = true where id = $1`, [pending.id]);
    outsiders.push(['pending password change', pending.client]);
    for (const [who, client] of outsiders) {
      const res = await downloadAs(await jwtOf(client), OBJECT.lessonPdf);
      expect(res.status, who).toBe(404);
      expect(res.headers.get('content-type'), who).toContain('application/json');
      expect(await res.json(), who).toEqual({ error: 'Arquivo não encontrado' });
      await expect(openMaterialFile(client, { file_path: OBJECT.lessonPdf, type: 'PDF' }), who).rejects.toThrow('Arquivo não encontrado');
    }
    // Without a session: the functions gateway (no token) or the function (the anon key) says 401.
    for (const jwt of [null, ANON_KEY]) {
      const res = await downloadAs(jwt, OBJECT.lessonPdf);
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toContain('application/json');
    }
    expect(await (await downloadAs(ANON_KEY, OBJECT.lessonPdf)).json()).toEqual({ error: 'Não autenticado' });
  });

  it('a path that climbs out of the checked folder (../) reaches no other course or bucket, in either function', async () => {
    // Files of a course the student did not buy, and of another school's lesson video.
    const paidDir = `${SCHOOL.demo}/${COURSE.marketing}/${LESSON.marketingPaid}`;
    const secretPdf = `${paidDir}/segredo.pdf`;
    const secretSheet = `${paidDir}/segredo.xlsx`;
    await backend.service().storage.from('lesson-materials').upload(secretPdf, await makePdf(1), { contentType: 'application/pdf' });
    await backend.service().storage.from('lesson-materials').upload(secretSheet, XLSX, { contentType: XLSX_TYPE });
    const rivalVideo = `${SCHOOL.rival}/${COURSE.rival}/${LESSON.rivalPaid}/aula-rival.mp4`;
    await backend.service().storage.from('lesson-videos').upload(rivalVideo, Buffer.from('\x00\x00\x00\x18ftypmp42 segredo rival'), { contentType: 'video/mp4' });
    // Each starts inside the student's own course (what the access check reads) and climbs out of it.
    const own = `${SCHOOL.demo}/${COURSE.excel}`;
    const climbs = {
      pdf: `${own}/../../${secretPdf}`,
      sheet: `${own}/../../${secretSheet}`,
      sheetDot: `${own}/./../../${secretSheet}`,
      video: `${own}/x/../../../../lesson-videos/${rivalVideo}`,
    };
    const jwt = await jwtOf(aluno);
    for (const path of [climbs.pdf, climbs.sheet]) {
      const res = await downloadAs(jwt, path);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      expect(res.headers.get('content-type'), path).toContain('application/json');
    }
    for (const [bucket, path] of [['lesson-materials', climbs.sheet], ['lesson-materials', climbs.sheetDot], ['lesson-materials', climbs.video]] as const) {
      const signed = await aluno.functions.invoke('sign-lesson-file', { body: { bucket, path, expiresIn: 60 } });
      expect(signed.data, path).toBeNull();
      expect(signed.response?.status, path).toBe(400);
    }
    // Control: the same files by their own paths are refused as another course's, and the own course's sheet still opens.
    await expect(openMaterialFile(aluno, { file_path: secretSheet, type: 'SHEET' })).rejects.toThrow('Arquivo não encontrado');
    const mine = await upload('1732700000006-minha.xlsx', XLSX, XLSX_TYPE);
    expect('url' in (await openMaterialFile(aluno, { file_path: mine, type: 'SHEET' }))).toBe(true);
  });

  it('a broken or password-protected PDF gets a clear message, not a 500', async () => {
    const broken = await upload('1732700000004-quebrado.pdf', Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 9 0 R\nstream\u0000\u0001lixo'), 'application/pdf');
    const res = await downloadAs(await jwtOf(aluno), broken);
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ error: 'Não foi possível ler este PDF para marcá-lo com o seu nome. Avise a escola.' });
    await expect(openMaterialFile(aluno, { file_path: broken, type: 'PDF' })).rejects.toThrow('Não foi possível ler este PDF');

    // A trailer with /Encrypt, as a password-protected file has.
    const plain = Buffer.from(await (await PDFDocument.load(await makePdf(1))).save({ useObjectStreams: false }));
    const locked = Buffer.from(plain.toString('latin1').replace('trailer\n<<', 'trailer\n<<\n/Encrypt << /Filter /Standard /V 1 /R 2 /O <00> /U <00> /P -4 >>'), 'latin1');
    const encrypted = await upload('1732700000005-protegido.pdf', locked, 'application/pdf');
    const refused = await downloadAs(await jwtOf(aluno), encrypted);
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({ error: 'Este PDF é protegido por senha e não pode ser baixado com o seu nome. Avise a escola.' });
  });

  it('a PDF that inflates far past its size (a decompression bomb) is refused before it is inflated', async () => {
    const bomb = await inflateBomb(128);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const path = await upload('1732700000007-apostila-compacta.pdf', bomb, 'application/pdf');
    const res = await downloadAs(await jwtOf(aluno), path);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      error: 'Este PDF se expande demais para ser baixado com o seu nome (mais de 32 MB descompactado). Peça à escola uma versão menor.',
    });
    // The control: the seeded apostila still downloads stamped.
    const ok = await downloadAs(await jwtOf(aluno), OBJECT.lessonPdf);
    expect(ok.status).toBe(200);
    expect((await pagesText(new Uint8Array(await ok.arrayBuffer())))[0]).toContain(EMAIL.aluno);
  });

  it('a page tree that repeats a child at every level (2^22 page visits in 2 KB) or loops is refused at once, not walked', async () => {
    const repeated = 'A estrutura de páginas deste PDF está corrompida (a mesma página aparece repetida) e ele não pode ser baixado com o seu nome. Avise a escola.';
    const tree = repeatedPageTree(22);
    expect(tree.length).toBeLessThan(3 * 1024);
    for (const [name, bytes] of [['1732700000013-apostila-arvore.pdf', tree], ['1732700000014-apostila-ciclo.pdf', repeatedPageTree(8, { cycle: true })]] as const) {
      const res = await downloadAs(await jwtOf(aluno), await upload(name, bytes, 'application/pdf'));
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({ error: repeated });
    }
    // The control: a PDF of several pages still downloads stamped on each.
    const fine = await upload('1732700000015-apostila-tres-paginas.pdf', await makePdf(3), 'application/pdf');
    const ok = await downloadAs(await jwtOf(aluno), fine);
    expect(ok.status).toBe(200);
    const texts = await pagesText(new Uint8Array(await ok.arrayBuffer()));
    expect(texts).toHaveLength(3);
    for (const text of texts) expect(text).toContain(EMAIL.aluno);
  });

  it('an account stamps at most 60 PDFs an hour: the next is refused with 429 and counts nothing', async () => {
    const s = await backend.signedInAccount({ name: 'Rita Rajada', school: SCHOOL.demo });
    await backend.sql(`insert into public.enrollments (user_id, course_id, status) values ($1, $2, 'ACTIVE')`, [s.id, COURSE.excel]);
    const stamps = async () => Number((await backend.sql<{ n: string }>(`select count(*) as n from private.material_stamps where user_id = $1`, [s.id]))[0]!.n);
    expect((await downloadAs(await jwtOf(s.client), OBJECT.lessonPdf)).status).toBe(200);
    expect(await stamps()).toBe(1);
    await backend.sql(
      `insert into private.material_stamps (user_id, stamped_at) select $1, now() - interval '50 minutes' from generate_series(1, 59)`,
      [s.id],
    );
    const refused = await downloadAs(await jwtOf(s.client), OBJECT.lessonPdf);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: 'Muitos downloads seguidos. Tente de novo em alguns minutos.' });
    expect(await stamps()).toBe(60);
    // The control: a classmate downloads meanwhile; and an hour on, the account downloads again.
    expect((await downloadAs(await jwtOf(aluno), OBJECT.lessonPdf)).status).toBe(200);
    await backend.sql(`update private.material_stamps set stamped_at = stamped_at - interval '61 minutes' where user_id = $1`, [s.id]);
    expect((await downloadAs(await jwtOf(s.client), OBJECT.lessonPdf)).status).toBe(200);
  });

  it("a file no material holds (replaced, or never attached) is neither signed nor stamped for a student", async () => {
    const service = backend.service();
    const [v1, v2, loose] = [`${DIR}/1732700000010-planilha-v1.xlsx`, `${DIR}/1732700000011-planilha-v2.xlsx`, `${DIR}/1732700000012-solta.pdf`];
    for (const [path, bytes, type] of [[v1, XLSX, XLSX_TYPE], [v2, XLSX, XLSX_TYPE], [loose, await makePdf(1), 'application/pdf']] as const) {
      const { error } = await service.storage.from('lesson-materials').upload(path, bytes, { contentType: type });
      if (error) throw error;
    }
    const [material] = await backend.sql<{ id: string }>(
      `insert into public.materials (course_id, lesson_id, title, type, file_path) values ($1, $2, 'Planilha', 'SHEET', $3) returning id`,
      [COURSE.excel, LESSON.excelUpload, v1],
    );
    const sign = (path: string) => aluno.functions.invoke('sign-lesson-file', { body: { bucket: 'lesson-materials', path, expiresIn: 60 } });
    // The control: the material's file opens.
    expect((await sign(v1)).response?.status).toBe(200);
    // Staff replace the material's file: the old one signs nothing any more, the new one opens.
    await backend.sql(`update public.materials set file_path = $2 where id = $1`, [material!.id, v2]);
    expect((await sign(v1)).response?.status).toBe(404);
    expect((await sign(v2)).response?.status).toBe(200);
    // A PDF in the lesson's folder that no material holds is not stamped for a student either.
    const res = await downloadAs(await jwtOf(aluno), loose);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'Arquivo não encontrado' });
    // Staff, who read the folder directly, still open any of its files.
    expect((await admin.functions.invoke('sign-lesson-file', { body: { bucket: 'lesson-materials', path: v1, expiresIn: 60 } })).response?.status).toBe(200);
  });
});

describe('the limits come from the function secrets', () => {
  const small = useBackend({ functionSecrets: { MATERIAL_PDF_MAX_BYTES: String(64 * 1024), MATERIAL_PDF_MAX_PAGES: '5', MATERIAL_PDF_MAX_OBJECTS: '200' } });

  it('refuses a PDF over MATERIAL_PDF_MAX_BYTES, MATERIAL_PDF_MAX_PAGES or MATERIAL_PDF_MAX_OBJECTS with its message; one within both downloads', async () => {
    const client = await small.signIn(EMAIL.aluno);
    const service = small.service();
    const put = async (name: string, bytes: Uint8Array) => {
      const path = `${DIR}/${name}`;
      const { error } = await service.storage.from('lesson-materials').upload(path, bytes, { contentType: 'application/pdf' });
      if (error) throw error;
      await small.sql(`insert into public.materials (course_id, lesson_id, title, type, file_path) values ($1, $2, $3, 'PDF', $4)`, [
        COURSE.excel, LESSON.excelUpload, name, path,
      ]);
      return path;
    };
    const huge = await put('grande.pdf', await makePdf(1, { padTo: 200 * 1024 }));
    await expect(openMaterialFile(client, { file_path: huge, type: 'PDF' })).rejects.toThrow(
      'Este PDF é grande demais para ser baixado com o seu nome (limite de 64 KB). Peça à escola uma versão menor.',
    );
    const long = await put('longo.pdf', await makePdf(6));
    await expect(openMaterialFile(client, { file_path: long, type: 'PDF' })).rejects.toThrow(
      'Este PDF tem páginas demais para ser baixado com o seu nome (limite de 5 páginas). Peça à escola uma versão menor.',
    );
    // Objects beyond MATERIAL_PDF_MAX_OBJECTS (a file of 2 pages and 300 small objects): each costs pdf-lib work.
    const crowded = await PDFDocument.load(await makePdf(2));
    for (let i = 0; i < 300; i++) crowded.context.register(crowded.context.obj([i, 1, 2, 3]));
    const many = await put('objetos.pdf', await crowded.save());
    await expect(openMaterialFile(client, { file_path: many, type: 'PDF' })).rejects.toThrow(
      'Este PDF tem objetos demais para ser baixado com o seu nome (limite de 200). Peça à escola uma versão menor.',
    );
    const fits = await put('cabe.pdf', await makePdf(5));
    const got = await openMaterialFile(client, { file_path: fits, type: 'PDF' });
    expect('file' in got && (await pagesText(new Uint8Array(await got.file.arrayBuffer())))).toHaveLength(5);
  });
});
