import { describe, expect, it } from 'vitest';
import { decodeCsv, parseStudentsCsv, validateRows } from './csv-import';

function file(text: string | Uint8Array, name = 'alunos.csv') {
  return new File([text as BlobPart], name, { type: 'text/csv' });
}

describe('students CSV import', () => {
  it('reads ";" and "," files with pt-BR or English headers', async () => {
    const a = await parseStudentsCsv(file('nome;e-mail;cpf;telefone\nAna Lima;ANA@exemplo.com;529.982.247-25;(11) 98888-7777\n'));
    expect(a.missingColumns).toEqual([]);
    expect(a.rows).toEqual([{ line: 2, name: 'Ana Lima', email: 'ana@exemplo.com', cpf: '529.982.247-25', phone: '11988887777', turma: '', errors: [] }]);
    const b = await parseStudentsCsv(file('name,email,cpf,phone\nBruno,bruno@exemplo.com,52998224725,5511988887777\n'));
    expect(b.rows[0]).toMatchObject({ name: 'Bruno', cpf: '529.982.247-25', phone: '11988887777', errors: [] });
    // Issue 40: a turma by name or id (turma or turma_id), found in the chosen course when importing.
    const c = await parseStudentsCsv(file('nome;email;Turma\nCaio;caio@exemplo.com; Turma de março \n'));
    expect(c.rows[0]).toMatchObject({ name: 'Caio', turma: 'Turma de março', errors: [] });
  });

  it('decodes Latin-1 files (Excel in Brazil) and UTF-8 with a BOM', () => {
    const latin1 = new Uint8Array([0x4a, 0x6f, 0xe3, 0x6f]); // "João" in Windows-1252
    expect(decodeCsv(latin1.buffer)).toBe('João');
    const utf8 = new TextEncoder().encode('\ufeffJoão');
    expect(decodeCsv(utf8.buffer as ArrayBuffer)).toBe('João');
  });

  it('explains each bad row in pt-BR and catches repeated e-mails', () => {
    const { rows } = validateRows([
      { nome: '', email: 'x' },
      { nome: 'Ok', email: 'ok@exemplo.com', cpf: '111.111.111-11', telefone: '123' },
      { nome: 'Dup', email: 'OK@exemplo.com' },
    ]);
    expect(rows[0]!.errors).toEqual(['Nome é obrigatório', 'E-mail inválido']);
    expect(rows[1]!.errors).toEqual(['CPF inválido', 'Telefone inválido']);
    expect(rows[2]!.errors).toEqual(['E-mail repetido (linha 3)']);
  });

  it('reports missing columns', () => {
    expect(validateRows([{ aluno: 'x' }]).missingColumns).toEqual(['name (nome)', 'email']);
  });
});
