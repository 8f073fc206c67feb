// Importar CSV of the quiz editor (issue 23): `pergunta;opção 1;opção 2;…;corretas`, one question per
// line, `corretas` the numbers of the correct options ("1" or "1,3"), an optional `explicação` column.
// The kind is inferred: Verdadeiro/Falso with one correct → true_false, more than one correct →
// multiple (all or nothing), else single. Every row is checked with pt-BR messages before anything
// is imported; only a file without errors imports.
import { decodeCsv } from '@/utils/csv';

export type ImportedKind = 'single' | 'multiple' | 'true_false';

export interface ImportedQuestion {
  /** The line of the file (the header is line 1). */
  line: number;
  statement: string;
  options: { text: string; correct: boolean }[];
  explanation: string | null;
  kind: ImportedKind;
  errors: string[];
}

export interface QuestionsCsv {
  /** What is wrong with the file as a whole (its header, its size); no rows then. */
  fileError: string | null;
  rows: ImportedQuestion[];
}

export const MAX_IMPORTED_QUESTIONS = 200;
const MAX_OPTIONS = 10;
const MAX_OPTION_LENGTH = 500;
const MAX_TEXT_LENGTH = 5000;
export const HEADER_EXAMPLE = 'pergunta;opção 1;opção 2;…;corretas';

const normalize = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toLowerCase();

type Column = 'statement' | 'option' | 'correct' | 'explanation' | null;

function columnOf(header: string): Column {
  const h = normalize(header);
  if (h === 'pergunta' || h === 'enunciado') return 'statement';
  if (/^opcao( \d+)?$/.test(h) || /^alternativa( \d+)?$/.test(h)) return 'option';
  if (h === 'corretas' || h === 'correta' || h === 'respostas corretas') return 'correct';
  if (h === 'explicacao') return 'explanation';
  return null;
}

/** Whether the options are Verdadeiro and Falso (in either order). */
function isTrueFalse(options: { text: string }[]): boolean {
  const texts = options.map((o) => normalize(o.text)).sort();
  return texts.length === 2 && texts[0] === 'falso' && texts[1] === 'verdadeiro';
}

const thousands = (n: number) => n.toLocaleString('pt-BR');

/** Checks the cells of a parsed file (first row the header), row by row. */
export function validateQuestionRows(cells: string[][]): QuestionsCsv {
  const headerIndex = cells.findIndex((row) => row.some((c) => c.trim()));
  if (headerIndex < 0) return { fileError: 'O arquivo está vazio.', rows: [] };
  const columns = cells[headerIndex]!.map(columnOf);
  const optionColumns = columns.flatMap((c, i) => (c === 'option' ? [i] : []));
  const statementAt = columns.indexOf('statement');
  const correctAt = columns.indexOf('correct');
  const explanationAt = columns.indexOf('explanation');
  if (statementAt < 0 || correctAt < 0 || optionColumns.length < 2) {
    return { fileError: `O cabeçalho deve ser: ${HEADER_EXAMPLE} (separados por ponto e vírgula).`, rows: [] };
  }
  if (optionColumns.length > MAX_OPTIONS) {
    return { fileError: `O cabeçalho tem ${optionColumns.length} colunas de opção; o máximo é ${MAX_OPTIONS}.`, rows: [] };
  }

  const rows: ImportedQuestion[] = [];
  cells.forEach((row, index) => {
    if (index <= headerIndex || !row.some((c) => c.trim())) return;
    const line = index + 1;
    const errors: string[] = [];
    const say = (message: string) => errors.push(`Linha ${line}: ${message}`);
    const cell = (i: number) => (row[i] ?? '').trim();

    const statement = cell(statementAt);
    if (!statement) say('informe a pergunta.');
    else if (statement.length > MAX_TEXT_LENGTH) say(`a pergunta tem mais de ${thousands(MAX_TEXT_LENGTH)} caracteres.`);

    const texts = optionColumns.map(cell);
    const count = texts.reduce((last, text, i) => (text ? i + 1 : last), 0);
    const options = texts.slice(0, count).map((text) => ({ text, correct: false }));
    const gap = options.findIndex((o) => !o.text);
    if (gap >= 0) say(`a opção ${gap + 1} está vazia, mas há opções depois dela.`);
    if (count < 2) say('informe ao menos duas opções.');
    options.forEach((o, i) => {
      if (o.text.length > MAX_OPTION_LENGTH) say(`a opção ${i + 1} tem mais de ${MAX_OPTION_LENGTH} caracteres.`);
    });

    const correct = cell(correctAt);
    if (!correct) say('informe em corretas o número da opção correta (ex.: 1 ou 1,3).');
    else if (!/^\d+(\s*,\s*\d+)*$/.test(correct)) {
      say(`corretas deve listar números de opções separados por vírgula (ex.: 1 ou 1,3), não "${correct}".`);
    } else {
      const numbers = [...new Set(correct.split(',').map((n) => Number(n.trim())))];
      for (const n of numbers) {
        if (n < 1 || n > count) say(`a opção ${n} indicada em corretas não existe.`);
        else options[n - 1]!.correct = true;
      }
    }

    const explanation = explanationAt >= 0 ? cell(explanationAt) : '';
    if (explanation.length > MAX_TEXT_LENGTH) say(`a explicação tem mais de ${thousands(MAX_TEXT_LENGTH)} caracteres.`);

    const corrects = options.filter((o) => o.correct).length;
    const kind: ImportedKind = corrects > 1 ? 'multiple' : corrects === 1 && isTrueFalse(options) ? 'true_false' : 'single';
    rows.push({ line, statement, options, explanation: explanation || null, kind, errors });
  });

  if (rows.length === 0) return { fileError: 'O arquivo não tem perguntas abaixo do cabeçalho.', rows: [] };
  if (rows.length > MAX_IMPORTED_QUESTIONS) {
    return { fileError: `O arquivo tem ${rows.length} perguntas; importe no máximo ${MAX_IMPORTED_QUESTIONS} de cada vez.`, rows: [] };
  }
  return { fileError: null, rows };
}

/** The file's text split in cells (';' between fields; quoted cells may hold ';' and line breaks). */
export async function parseQuestionsCsvText(text: string): Promise<QuestionsCsv> {
  const { default: Papa } = await import('papaparse');
  const parsed = Papa.parse<string[]>(text, { delimiter: ';', skipEmptyLines: false });
  return validateQuestionRows(parsed.data);
}

export async function parseQuestionsCsv(file: File): Promise<QuestionsCsv> {
  return parseQuestionsCsvText(decodeCsv(await file.arrayBuffer()));
}
