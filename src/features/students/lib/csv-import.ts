// Bulk import of students from a CSV (issue 10): decoding (UTF-8, else Latin-1/Windows-1252), ';' or
// ',' delimiters, pt-BR or English headers, and per-row validation with pt-BR messages.
import { decodeCsv } from '@/utils/csv';
import { isValidCpf, isValidPhone, maskCpf, onlyDigits } from '@/utils/format';

export interface ImportRow {
  line: number;
  name: string;
  email: string;
  cpf: string;
  phone: string;
  /** A turma of the chosen course, by name or id (issue 40); '' for none. */
  turma: string;
  errors: string[];
}

// The file's text: UTF-8, else Windows-1252 (src/utils/csv.ts, shared with the quiz questions' import).
export { decodeCsv };

const HEADERS: Record<string, keyof Pick<ImportRow, 'name' | 'email' | 'cpf' | 'phone' | 'turma'>> = {
  name: 'name',
  nome: 'name',
  'nome completo': 'name',
  email: 'email',
  'e-mail': 'email',
  cpf: 'cpf',
  phone: 'phone',
  telefone: 'phone',
  celular: 'phone',
  whatsapp: 'phone',
  turma: 'turma',
  turma_id: 'turma',
};

function headerKey(h: string) {
  return HEADERS[h.normalize('NFD').replace(/[\u0300-\u036f]/g, '').trim().toLowerCase()];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Rows of a parsed CSV (papaparse with header: true) checked one by one; duplicate e-mails are errors. */
export function validateRows(records: Record<string, string>[]): { rows: ImportRow[]; missingColumns: string[] } {
  const fields = new Set(records.flatMap((r) => Object.keys(r).map(headerKey).filter(Boolean)));
  const missingColumns = (['name', 'email'] as const).filter((f) => !fields.has(f)).map((f) => (f === 'name' ? 'name (nome)' : 'email'));
  const seen = new Map<string, number>();
  const rows = records.map((record, i) => {
    const row: ImportRow = { line: i + 2, name: '', email: '', cpf: '', phone: '', turma: '', errors: [] };
    for (const [k, v] of Object.entries(record)) {
      const key = headerKey(k);
      if (key) row[key] = (v ?? '').trim();
    }
    row.email = row.email.toLowerCase();
    if (!row.name) row.errors.push('Nome é obrigatório');
    if (!row.email) row.errors.push('E-mail é obrigatório');
    else if (!EMAIL.test(row.email)) row.errors.push('E-mail inválido');
    if (row.cpf) {
      if (!isValidCpf(row.cpf)) row.errors.push('CPF inválido');
      else row.cpf = maskCpf(row.cpf);
    }
    if (row.phone) {
      let d = onlyDigits(row.phone);
      if (d.length >= 12 && d.startsWith('55')) d = d.slice(2);
      if (!isValidPhone(d)) row.errors.push('Telefone inválido');
      else row.phone = d;
    }
    if (row.email) {
      const first = seen.get(row.email);
      if (first) row.errors.push(`E-mail repetido (linha ${first})`);
      else seen.set(row.email, row.line);
    }
    return row;
  });
  return { rows, missingColumns };
}

export async function parseStudentsCsv(file: File): Promise<{ rows: ImportRow[]; missingColumns: string[] }> {
  const { default: Papa } = await import('papaparse');
  const text = decodeCsv(await file.arrayBuffer());
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: 'greedy', delimitersToGuess: [';', ',', '\t'] });
  return validateRows(parsed.data);
}
