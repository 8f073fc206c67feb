// The licence line stamped on every page of a PDF material a student downloads (issue 39):
// "Licenciado para <nome> · <e-mail> · <dd/mm/aaaa>", as real text (a reader's text layer, search and
// copy find it) in pdf-lib's standard Helvetica, along the page's visual bottom edge whatever its
// /Rotate and crop box.
//
// Helvetica is WinAnsi: every letter of Portuguese is in it. Any other character (a Polish ł, Greek,
// Cyrillic, CJK, an emoji) is transliterated rather than embedding a font: accents are dropped (ğ → g,
// ő → o) and what still does not fit becomes '?'. The e-mail, which the tests and a reader search for,
// is ASCII in practice; a name that turns into question marks still carries the e-mail beside it.
import { AsyncLocalStorage } from 'node:async_hooks';
import { inflateSync } from 'node:zlib';
import {
  degrees,
  PDFArray,
  PDFDocument,
  PDFFont,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFObjectStreamParser,
  PDFPage,
  PDFPageLeaf,
  PDFPageTree,
  type PDFRawStream,
  PDFXRefStreamParser,
  rgb,
  StandardFonts,
} from 'npm:pdf-lib@1.17.1';

/** Why a file could not be stamped; `download-material` turns each into its pt-BR answer. */
export class StampError extends Error {
  constructor(
    readonly reason: 'unreadable' | 'encrypted' | 'too-many-pages' | 'too-many-objects' | 'too-expanded' | 'repeated-pages',
    message: string,
  ) {
    super(message);
  }
}

/** What one stamping may cost: pdf-lib holds the whole document, inflated, in memory. */
export interface StampBounds {
  maxPages: number;
  /** Objects in the file (each one parsed and written again), those packed in object streams included. */
  maxObjects: number;
  /** Bytes the object and cross-reference streams inflate to, all together (pdf-lib inflates them on load). */
  maxExpandedBytes: number;
}
export const DEFAULT_MAX_OBJECTS = 50_000;
export const DEFAULT_MAX_EXPANDED_BYTES = 32 * 1024 * 1024;

/** What the document being loaded may still spend; one per load, so loads running together never mix. */
interface LoadBudget {
  objects: number;
  expandedBytes: number;
  readonly bounds: Omit<StampBounds, 'maxPages'>;
  /** Why the load went over (pdf-lib catches what a stream's parser throws and goes on without it). */
  refused?: StampError;
}
const loading = new AsyncLocalStorage<LoadBudget>();

/**
 * Before pdf-lib inflates an object stream (/ObjStm) or a cross-reference stream on load, which it does in
 * full, the stream is inflated here with a ceiling on what it may produce (node:zlib's maxOutputLength: one
 * deflate block can hold gigabytes, so the ceiling is on the output, not on blocks), and the objects it
 * packs (/N) are counted. Past the document's budget the load stops with a StampError. Writers use
 * FlateDecode alone for these streams; any other filter is refused as unreadable rather than decoded
 * without a ceiling.
 */
function spend(stream: PDFRawStream): void {
  const budget = loading.getStore();
  if (!budget) return;
  if (budget.refused) throw budget.refused;
  try {
    charge(budget, stream);
  } catch (e) {
    if (e instanceof StampError) budget.refused = e;
    throw e;
  }
}

function charge(budget: LoadBudget, stream: PDFRawStream): void {
  const packed = stream.dict.lookup(PDFName.of('N'));
  if (packed instanceof PDFNumber) budget.objects += Math.max(0, packed.asNumber());
  if (budget.objects > budget.bounds.maxObjects) throw new StampError('too-many-objects', `more than ${budget.bounds.maxObjects} objects`);
  const filter = stream.dict.lookup(PDFName.of('Filter'));
  const filters = filter instanceof PDFArray ? filter.asArray() : filter === undefined ? [] : [filter];
  const left = budget.bounds.maxExpandedBytes - budget.expandedBytes;
  if (filters.length === 0) {
    budget.expandedBytes += stream.contents.byteLength;
  } else if (filters.length === 1 && filters[0] === PDFName.of('FlateDecode')) {
    try {
      budget.expandedBytes += inflateSync(stream.contents, { maxOutputLength: Math.max(1, left + 1) }).byteLength;
    } catch (e) {
      if (e instanceof RangeError) budget.expandedBytes = budget.bounds.maxExpandedBytes + 1;
      // A damaged stream: pdf-lib decides what it makes of it (its own decoder stops at the damage too).
    }
  } else {
    throw new StampError('unreadable', `an object or cross-reference stream filtered with ${String(filter)}`);
  }
  if (budget.expandedBytes > budget.bounds.maxExpandedBytes) {
    throw new StampError('too-expanded', `more than ${budget.bounds.maxExpandedBytes} bytes inflated`);
  }
}
for (const Parser of [PDFObjectStreamParser, PDFXRefStreamParser] as unknown as { forStream: (s: PDFRawStream, ...rest: unknown[]) => unknown }[]) {
  const original = Parser.forStream;
  Parser.forStream = (stream, ...rest) => {
    spend(stream);
    return original.call(Parser, stream, ...rest);
  };
}

/**
 * The page tree walked once before pdf-lib walks it. pdf-lib's getPages() follows /Kids with no memory of
 * what it met and counts pages only after the walk, so a 2 KB file whose every /Pages node lists the same
 * child twice makes it visit 2^depth pages, synchronously (the outside attacker's finding 20; a /Kids cycle
 * never ends). Here each node may be met once (a repeat or a cycle is refused as 'repeated-pages'), with at
 * most maxPages pages and PAGE_TREE_NODES_PER_PAGE × maxPages nodes in all: the walk costs what the pages do.
 */
const PAGE_TREE_NODES_PER_PAGE = 4;
function checkPageTree(doc: PDFDocument, maxPages: number): void {
  const root = doc.catalog.get(PDFName.of('Pages'));
  if (!root) throw new StampError('unreadable', 'no page tree');
  const seen = new Set<PDFObject>([root]);
  const pending: PDFObject[] = [root];
  let pages = 0;
  while (pending.length > 0) {
    const node = doc.context.lookup(pending.pop());
    if (node instanceof PDFPageLeaf) {
      if (++pages > maxPages) throw new StampError('too-many-pages', `more than ${maxPages} pages`);
      continue;
    }
    if (!(node instanceof PDFPageTree)) continue; // pdf-lib skips it as well
    const kids = node.lookup(PDFName.of('Kids'));
    if (!(kids instanceof PDFArray)) throw new StampError('unreadable', 'a /Pages node without /Kids');
    for (const kid of kids.asArray()) {
      if (seen.has(kid)) throw new StampError('repeated-pages', `${String(kid)} met twice in the page tree`);
      seen.add(kid);
      if (seen.size > PAGE_TREE_NODES_PER_PAGE * maxPages) throw new StampError('repeated-pages', `more than ${seen.size - 1} page tree nodes`);
      pending.push(kid);
    }
  }
}

const OBJECT_HEADER = /\d+\s+\d+\s+obj\b/g;

/** The `n g obj` headers of the file (its top-level objects, each revision's), counting up to `max + 1`. */
function countObjectHeaders(bytes: Uint8Array, max: number): number {
  const text = new TextDecoder('latin1').decode(bytes);
  let count = 0;
  for (const _ of text.matchAll(OBJECT_HEADER)) if (++count > max) break;
  return count;
}

export interface Licensee {
  name: string;
  email: string;
  /** When the file is handed out: the date shown is this day in São Paulo. */
  at: Date;
}

/** dd/mm/aaaa in São Paulo. */
export function saoPauloDate(at: Date): string {
  return new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', day: '2-digit', month: '2-digit', year: 'numeric' }).format(at);
}

/** The licence line, before it is fitted to the font. */
export function licenceLine({ name, email, at }: Licensee): string {
  const who = name.trim() || email;
  return `Licenciado para ${who} · ${email} · ${saoPauloDate(at)}`;
}

/** The text in characters the font encodes: accents dropped where that helps, anything else '?'. */
export function fitToFont(text: string, font: PDFFont): string {
  const encodable = new Set(font.getCharacterSet());
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const code = ch.codePointAt(0)!;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) continue; // control characters
    if (encodable.has(code)) {
      out += ch;
      continue;
    }
    const base = ch.normalize('NFKD').replace(/\p{M}/gu, '');
    out += base && [...base].every((c) => encodable.has(c.codePointAt(0)!)) ? base : '?';
  }
  return out;
}

const MARGIN = 10;
const MAX_SIZE = 8;
const MIN_SIZE = 4;

/** Draws the line centred on the page's visual bottom edge, reading left to right as the page is shown. */
function stampPage(page: PDFPage, line: string, font: PDFFont): void {
  const box = page.getCropBox();
  const angle = (((page.getRotation().angle % 360) + 360) % 360) as 0 | 90 | 180 | 270;
  const across = angle === 90 || angle === 270 ? box.height : box.width;
  const size = Math.max(MIN_SIZE, Math.min(MAX_SIZE, ((across - 2 * MARGIN) / font.widthOfTextAtSize(line, 1)) * 0.98));
  const width = font.widthOfTextAtSize(line, size);
  const start = (across - width) / 2;
  // Where the text starts in the page's own (unrotated) space, and which way it runs.
  const at =
    angle === 0
      ? { x: box.x + start, y: box.y + MARGIN }
      : angle === 90
        ? { x: box.x + box.width - MARGIN, y: box.y + start }
        : angle === 180
          ? { x: box.x + box.width - start, y: box.y + box.height - MARGIN }
          : { x: box.x + MARGIN, y: box.y + box.height - start };
  page.drawText(line, { ...at, size, font, color: rgb(0.35, 0.35, 0.35), opacity: 0.85, rotate: degrees(angle) });
}

/** Saves the original content's graphics state around it, so a page that leaves its CTM or colour
 * changed (unbalanced q/Q) does not move or recolour the stamp drawn after it. */
function isolateContent(doc: PDFDocument, page: PDFPage): void {
  page.node.normalize();
  const start = doc.context.register(doc.context.flateStream('q\n'));
  const end = doc.context.register(doc.context.flateStream('\nQ\n'));
  page.node.wrapContentStreams(start, end);
}

/**
 * The PDF with the licence line on every page. Refuses (StampError) a file over its bounds: more objects
 * than maxObjects (counted before the load, and those packed in object streams as the load meets them),
 * object streams inflating past maxExpandedBytes (refused before they are inflated in full), more pages than
 * maxPages, a page tree that repeats a node (checkPageTree); one pdf-lib cannot read; or an encrypted one (its pages could not be changed without its key).
 */
export async function stampPdf(
  bytes: Uint8Array,
  who: Licensee,
  { maxPages, maxObjects = DEFAULT_MAX_OBJECTS, maxExpandedBytes = DEFAULT_MAX_EXPANDED_BYTES }: Partial<StampBounds> & { maxPages: number },
): Promise<Uint8Array> {
  const headers = countObjectHeaders(bytes, maxObjects);
  if (headers > maxObjects) throw new StampError('too-many-objects', `more than ${maxObjects} objects`);
  const budget: LoadBudget = { objects: headers, expandedBytes: 0, bounds: { maxObjects, maxExpandedBytes } };
  let doc: PDFDocument;
  try {
    // Loaded even when encrypted, only to say so (pdf-lib's own refusal is a plain Error).
    doc = await loading.run(budget, () => PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true }));
  } catch (e) {
    throw budget.refused ?? new StampError('unreadable', e instanceof Error ? e.message : String(e));
  }
  if (budget.refused) throw budget.refused;
  if (doc.isEncrypted) throw new StampError('encrypted', 'encrypted');
  let pages: PDFPage[];
  try {
    checkPageTree(doc, maxPages);
    pages = doc.getPages();
  } catch (e) {
    if (e instanceof StampError) throw e;
    throw new StampError('unreadable', e instanceof Error ? e.message : String(e));
  }
  if (pages.length === 0) throw new StampError('unreadable', 'no pages');
  if (pages.length > maxPages) throw new StampError('too-many-pages', `${pages.length} pages`);
  try {
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const line = fitToFont(licenceLine(who), font);
    for (const page of pages) {
      isolateContent(doc, page);
      stampPage(page, line, font);
    }
    return await doc.save({ updateFieldAppearances: false });
  } catch (e) {
    throw new StampError('unreadable', e instanceof Error ? e.message : String(e));
  }
}
