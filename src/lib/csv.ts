// Every CSV the product writes goes through here: ';' between fields and UTF-8 with a BOM (Excel in
// pt-BR), and formula injection neutralised. A cell a student controls (a name like
// `=HYPERLINK("https://…")`) would otherwise run as a formula when staff open the file.
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

export function downloadCsv(fileName: string, text: string): void {
  downloadBlob(fileName, new Blob([text], { type: 'text/csv;charset=utf-8' }));
}
