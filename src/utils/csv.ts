// Every CSV the product writes goes through here: ';' between fields and UTF-8 with a BOM (Excel in
// pt-BR), and formula injection neutralised. A cell a student controls (a name like
// `=HYPERLINK("https://…")`) would otherwise run as a formula when staff open the file. The imports
// (students, quiz questions) read a file's text with decodeCsv.
import { downloadBlob } from './download';

/**
 * Cells that a spreadsheet would read as a formula or a command: starting with = + - @, a tab, CR or LF
 * (OWASP's list). papaparse's own default pattern ends in `.*$` and so misses a cell with a line break.
 */
export const FORMULA_START = /^[=+\-@\t\r\n]/;

/** papaparse is loaded only when someone exports. */
export async function toCsv(fields: string[], rows: string[][]): Promise<string> {
  const { default: Papa } = await import('papaparse');
  return '\ufeff' + Papa.unparse({ fields, data: rows }, { delimiter: ';', newline: '\r\n', escapeFormulae: FORMULA_START });
}

/** A CSV file's text: UTF-8 when it is valid UTF-8, otherwise Windows-1252 (Excel's "CSV" in Brazil). */
export function decodeCsv(bytes: ArrayBuffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\ufeff/, '');
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

export function downloadCsv(fileName: string, text: string): void {
  downloadBlob(fileName, new Blob([text], { type: 'text/csv;charset=utf-8' }));
}
