// The certificate as a PDF (A4 landscape), drawn with pdf-lib. Loaded with import() only when the
// student clicks 'Baixar certificado', so pdf-lib never weighs on the home or course pages.
// Text uses pdf-lib's standard fonts (WinAnsi): Portuguese letters (ç ã é õ ...) are in WinAnsi;
// anything outside it is written without its accent, or as '?', instead of failing the whole PDF.
import { PDFDocument, PDFName, PDFString, StandardFonts, rgb, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib';
import { DEFAULT_PRIMARY, DEFAULT_SECONDARY, safeColor } from '@/concepts/brand';
import { parseHex, shadeFor } from '@/utils/contrast';
import { formatLongDate, workloadText } from '@/concepts/certificates';

export interface CertificatePdfInput {
  code: string;
  studentName: string;
  courseTitle: string;
  schoolName: string;
  completedAt: string;
  workloadHours: number;
  issuedAt: string;
  /** <origin>/certificado/<code> */
  verifyUrl: string;
  logoUrl: string | null;
  primaryColor: string | null;
  secondaryColor: string | null;
}

// A4 landscape, in points.
const W = 841.89;
const H = 595.28;
const SLATE_900 = rgb(15 / 255, 23 / 255, 42 / 255);
const SLATE_600 = rgb(71 / 255, 85 / 255, 105 / 255);

function color(hex: string) {
  const [r, g, b] = parseHex(hex);
  return rgb(r / 255, g / 255, b / 255);
}

/** The hex colour mixed with white (t = 0 keeps it, 1 is white). */
function tint(hex: string, t: number) {
  const [r, g, b] = parseHex(hex);
  return rgb((r + (255 - r) * t) / 255, (g + (255 - g) * t) / 255, (b + (255 - b) * t) / 255);
}

/** Text the font can encode: NFC first (a decomposed 'é' becomes one WinAnsi letter), then letters
 * outside the font lose their accent (NFD without combining marks) or become '?'; whitespace runs
 * become one space (a newline would start a new PDF line). */
export function encodable(text: string, font: PDFFont): string {
  const supported = new Set(font.getCharacterSet());
  let out = '';
  for (const ch of text.normalize('NFC').replace(/\s+/g, ' ').trim()) {
    if (supported.has(ch.codePointAt(0)!)) {
      out += ch;
      continue;
    }
    const bare = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    out += bare && [...bare].every((c) => supported.has(c.codePointAt(0)!)) ? bare : '?';
  }
  return out;
}

/** Words into lines of at most maxWidth (a word longer than a line is cut by letters). */
function wrap(text: string, font: PDFFont, size: number, maxWidth: number): string[] {
  const fits = (s: string) => font.widthOfTextAtSize(s, size) <= maxWidth;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line ? `${line} ${word}` : word;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = word;
    while (!fits(line)) {
      let cut = line.length - 1;
      while (cut > 1 && !fits(line.slice(0, cut))) cut--;
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** The largest size from `size` down to `minSize` at which the text takes at most maxLines lines; at
 * minSize, the lines beyond maxLines are dropped and the last one ends with '…'. */
export function fitText(text: string, font: PDFFont, { size, minSize, maxWidth, maxLines }: { size: number; minSize: number; maxWidth: number; maxLines: number }) {
  for (let s = size; s >= minSize; s -= 1) {
    const lines = wrap(text, font, s, maxWidth);
    if (lines.length <= maxLines) return { size: s, lines };
  }
  const lines = wrap(text, font, minSize, maxWidth).slice(0, maxLines);
  let last = lines[maxLines - 1]!;
  while (last.length > 1 && font.widthOfTextAtSize(`${last}…`, minSize) > maxWidth) last = last.slice(0, -1);
  lines[maxLines - 1] = `${last.trimEnd()}…`;
  return { size: minSize, lines };
}

function centered(page: PDFPage, text: string, y: number, font: PDFFont, size: number, c = SLATE_900) {
  page.drawText(text, { x: (W - font.widthOfTextAtSize(text, size)) / 2, y, size, font, color: c });
}

/** The school's logo as bytes the PDF can embed (PNG or JPEG), or null: no logo, another format, a
 * network error or a slow server must never stop the certificate. */
export async function loadLogo(url: string | null, fetchImpl: typeof fetch = fetch): Promise<{ bytes: Uint8Array; type: 'png' | 'jpg' } | null> {
  if (!url) return null;
  try {
    const res = await fetchImpl(url, { signal: AbortSignal.timeout(5000) });
    if (!res.ok) return null;
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return { bytes, type: 'png' };
    if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { bytes, type: 'jpg' };
    return null;
  } catch {
    return null;
  }
}

export async function createCertificatePdf(input: CertificatePdfInput, { fetchImpl = fetch }: { fetchImpl?: typeof fetch } = {}): Promise<Uint8Array> {
  const primary = safeColor(input.primaryColor, DEFAULT_PRIMARY);
  const secondary = safeColor(input.secondaryColor, DEFAULT_SECONDARY);
  // Text in the school's colour uses its shade that reads on white (≥ 4.5:1), as the app does.
  const primaryText = color(shadeFor(primary, '#ffffff'));

  const doc = await PDFDocument.create();
  const [sans, sansBold, serifBold, serifBoldItalic, mono] = await Promise.all([
    doc.embedFont(StandardFonts.Helvetica),
    doc.embedFont(StandardFonts.HelveticaBold),
    doc.embedFont(StandardFonts.TimesRomanBold),
    doc.embedFont(StandardFonts.TimesRomanBoldItalic),
    doc.embedFont(StandardFonts.CourierBold),
  ]);
  const studentName = encodable(input.studentName, serifBoldItalic);
  const courseTitle = encodable(input.courseTitle, sansBold);
  const schoolName = encodable(input.schoolName, sansBold);

  doc.setTitle(encodable(`Certificado de Conclusão - ${input.courseTitle}`, sans));
  doc.setAuthor(schoolName);
  doc.setSubject(encodable(`${input.studentName} - ${input.courseTitle}`, sans));
  doc.setCreator(schoolName);
  doc.setProducer('Plataforma de Cursos');
  doc.setLanguage('pt-BR');
  doc.setCreationDate(new Date(input.issuedAt));

  const page = doc.addPage([W, H]);
  // Frame: a tint of the school colour around a white sheet, its border in both colours.
  page.drawRectangle({ x: 0, y: 0, width: W, height: H, color: tint(primary, 0.9) });
  page.drawRectangle({ x: 22, y: 22, width: W - 44, height: H - 44, color: rgb(1, 1, 1), borderColor: color(primary), borderWidth: 2.5 });
  page.drawRectangle({ x: 32, y: 32, width: W - 64, height: H - 64, borderColor: color(secondary), borderWidth: 0.75 });
  page.drawRectangle({ x: 32, y: H - 40, width: W - 64, height: 8, color: color(primary) });

  // Logo (if it loads) and the school's name on top.
  let y = H - 66;
  const logo = await loadLogo(input.logoUrl, fetchImpl);
  let image: PDFImage | null = null;
  if (logo) {
    try {
      image = logo.type === 'png' ? await doc.embedPng(logo.bytes) : await doc.embedJpg(logo.bytes);
    } catch {
      image = null; // A corrupt image: go on without it.
    }
  }
  if (image) {
    const { width, height } = image.scaleToFit(170, 58);
    y -= height;
    page.drawImage(image, { x: (W - width) / 2, y, width, height });
    y -= 22;
  } else {
    y -= 14;
  }
  const school = fitText(schoolName.toUpperCase(), sansBold, { size: 12, minSize: 9, maxWidth: W - 200, maxLines: 1 });
  centered(page, school.lines[0]!, y, sansBold, school.size, primaryText);

  // The body, centred in the space between the school's name and the footer. Each line: the gap
  // above its baseline, then what it draws; measured first, drawn second.
  const name = fitText(studentName, serifBoldItalic, { size: 34, minSize: 20, maxWidth: W - 180, maxLines: 2 });
  const course = fitText(courseTitle, sansBold, { size: 22, minSize: 14, maxWidth: W - 200, maxLines: 2 });
  const body: { gap: number; draw: (y: number) => void }[] = [
    { gap: 40, draw: (at) => centered(page, 'Certificado de Conclusão', at, serifBold, 40, primaryText) },
    { gap: 44, draw: (at) => centered(page, 'Certificamos que', at, sans, 14, SLATE_600) },
    ...name.lines.map((line) => ({ gap: name.size + 10, draw: (at: number) => centered(page, line, at, serifBoldItalic, name.size) })),
    { gap: 12, draw: (at) => page.drawLine({ start: { x: W / 2 - 210, y: at }, end: { x: W / 2 + 210, y: at }, thickness: 1, color: color(secondary) }) },
    { gap: 30, draw: (at) => centered(page, 'concluiu o curso', at, sans, 14, SLATE_600) },
    ...course.lines.map((line) => ({ gap: course.size + 10, draw: (at: number) => centered(page, line, at, sansBold, course.size, primaryText) })),
    {
      gap: 36,
      draw: (at) => centered(page, `Carga horária: ${workloadText(input.workloadHours)}   ·   Concluído em ${formatLongDate(input.completedAt)}`, at, sans, 13, SLATE_900),
    },
  ];
  const height = body.reduce((h, line) => h + line.gap, 0);
  const footerTop = 120;
  y -= Math.max(16, (y - footerTop - height) / 2);
  for (const line of body) {
    y -= line.gap;
    line.draw(y);
  }

  // Bottom left: the code and where to check it (a link). Bottom right: the school, as the issuer.
  const left = 64;
  page.drawText('Código de verificação', { x: left, y: 92, size: 9, font: sans, color: SLATE_600 });
  page.drawText(input.code, { x: left, y: 76, size: 13, font: mono, color: SLATE_900 });
  page.drawText('Confira a autenticidade em', { x: left, y: 60, size: 9, font: sans, color: SLATE_600 });
  const url = encodable(input.verifyUrl, sans);
  const urlSize = Math.min(9, (9 * (W / 2 - left)) / Math.max(1, sans.widthOfTextAtSize(url, 9)));
  page.drawText(url, { x: left, y: 47, size: urlSize, font: sans, color: primaryText });
  const link = doc.context.register(
    doc.context.obj({
      Type: 'Annot',
      Subtype: 'Link',
      Rect: [left, 44, left + sans.widthOfTextAtSize(url, urlSize), 47 + urlSize],
      Border: [0, 0, 0],
      A: { Type: 'Action', S: 'URI', URI: PDFString.of(input.verifyUrl) },
    }),
  );
  page.node.set(PDFName.of('Annots'), doc.context.obj([link]));

  const right = W - 64;
  const issuer = fitText(schoolName, sansBold, { size: 12, minSize: 8, maxWidth: 240, maxLines: 1 });
  page.drawLine({ start: { x: right - 240, y: 82 }, end: { x: right, y: 82 }, thickness: 0.75, color: SLATE_600 });
  page.drawText(issuer.lines[0]!, { x: right - 120 - sansBold.widthOfTextAtSize(issuer.lines[0]!, issuer.size) / 2, y: 66, size: issuer.size, font: sansBold, color: SLATE_900 });
  const issued = `Emitido em ${formatLongDate(input.issuedAt)}`;
  page.drawText(issued, { x: right - 120 - sans.widthOfTextAtSize(issued, 9) / 2, y: 52, size: 9, font: sans, color: SLATE_600 });

  return doc.save();
}
