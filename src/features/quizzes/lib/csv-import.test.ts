import { describe, expect, it } from 'vitest';
import { parseQuestionsCsv, parseQuestionsCsvText, validateQuestionRows } from './csv-import';

const HEADER = ['pergunta', 'opção 1', 'opção 2', 'opção 3', 'opção 4', 'corretas'];

describe('quiz questions CSV import', () => {
  it('infers the kind: one correct is single, several are multiple, Verdadeiro/Falso with one is true_false', async () => {
    const csv = [
      'pergunta;opção 1;opção 2;opção 3;opção 4;corretas',
      'Qual função soma valores?;SOMA;MÉDIA;PROCV;;1',
      'Quais são funções de texto?;ESQUERDA;SOMA;DIREITA;CONCATENAR;1, 3,4',
      'O Excel é uma planilha?;Verdadeiro;Falso;;;1',
      'Falso ou verdadeiro: "A1" é uma célula;falso;VERDADEIRO;;;2',
    ].join('\r\n');
    const { fileError, rows } = await parseQuestionsCsvText(csv);
    expect(fileError).toBeNull();
    expect(rows.map((r) => [r.line, r.kind, r.errors])).toEqual([
      [2, 'single', []],
      [3, 'multiple', []],
      [4, 'true_false', []],
      [5, 'true_false', []],
    ]);
    expect(rows[0]!.options).toEqual([
      { text: 'SOMA', correct: true },
      { text: 'MÉDIA', correct: false },
      { text: 'PROCV', correct: false },
    ]);
    expect(rows[1]!.options.map((o) => o.correct)).toEqual([true, false, true, true]);
    expect(rows[3]!.statement).toBe('Falso ou verdadeiro: "A1" é uma célula');
  });

  it('Verdadeiro/Falso with both marked is multiple, and with a third option is single', () => {
    const { rows } = validateQuestionRows([HEADER, ['P1', 'Verdadeiro', 'Falso', '', '', '1,2'], ['P2', 'Verdadeiro', 'Falso', 'Talvez', '', '3']]);
    expect(rows.map((r) => r.kind)).toEqual(['multiple', 'single']);
  });

  it('explains each bad row in pt-BR, with its line in the file', () => {
    const { fileError, rows } = validateQuestionRows([
      HEADER,
      ['Ok', 'A', 'B', '', '', '2'],
      ['Só uma opção', 'A', '', '', '', '1'],
      ['Correta que não existe', 'A', 'B', 'C', '', '1,5'],
      ['', 'A', 'B', '', '', ''],
      ['Buraco', 'A', '', 'C', '', 'x'],
      ['Longa', 'A', 'B'.repeat(501), '', '', '1'],
    ]);
    expect(fileError).toBeNull();
    expect(rows.map((r) => r.errors)).toEqual([
      [],
      ['Linha 3: informe ao menos duas opções.'],
      ['Linha 4: a opção 5 indicada em corretas não existe.'],
      ['Linha 5: informe a pergunta.', 'Linha 5: informe em corretas o número da opção correta (ex.: 1 ou 1,3).'],
      [
        'Linha 6: a opção 2 está vazia, mas há opções depois dela.',
        'Linha 6: corretas deve listar números de opções separados por vírgula (ex.: 1 ou 1,3), não "x".',
      ],
      ['Linha 7: a opção 2 tem mais de 500 caracteres.'],
    ]);
  });

  it('keeps the line numbers of the file across blank lines, and reads quoted cells with ";"', async () => {
    const csv = 'pergunta;opção 1;opção 2;corretas\n\n"Qual é o separador; do CSV?";";";",";1\n\nSem opções;;;1\n';
    const { rows } = await parseQuestionsCsvText(csv);
    expect(rows.map((r) => r.line)).toEqual([3, 5]);
    expect(rows[0]).toMatchObject({ statement: 'Qual é o separador; do CSV?', errors: [] });
    expect(rows[1]!.errors).toEqual(['Linha 5: informe ao menos duas opções.', 'Linha 5: a opção 1 indicada em corretas não existe.']);
  });

  it('reads the optional explicação column', () => {
    const { rows } = validateQuestionRows([
      ['Pergunta', 'Opcao 1', 'Opção 2', 'Explicação', 'Corretas'],
      ['2 + 2?', '4', '5', 'Aritmética básica.', '1'],
      ['3 + 3?', '6', '7', '', '1'],
    ]);
    expect(rows.map((r) => r.explanation)).toEqual(['Aritmética básica.', null]);
  });

  it('refuses a file without the header, without rows, or with too many', () => {
    expect(validateQuestionRows([['nome', 'email']]).fileError).toBe(
      'O cabeçalho deve ser: pergunta;opção 1;opção 2;…;corretas (separados por ponto e vírgula).',
    );
    expect(validateQuestionRows([]).fileError).toBe('O arquivo está vazio.');
    expect(validateQuestionRows([HEADER, ['', '', '', '', '', '']]).fileError).toBe('O arquivo não tem perguntas abaixo do cabeçalho.');
    const many = Array.from({ length: 201 }, (_, i) => [`P${i}`, 'A', 'B', '', '', '1']);
    expect(validateQuestionRows([HEADER, ...many]).fileError).toBe('O arquivo tem 201 perguntas; importe no máximo 200 de cada vez.');
    const eleven = ['pergunta', ...Array.from({ length: 11 }, (_, i) => `opção ${i + 1}`), 'corretas'];
    expect(validateQuestionRows([eleven]).fileError).toBe('O cabeçalho tem 11 colunas de opção; o máximo é 10.');
  });

  it('decodes a Latin-1 file (Excel in Brazil)', async () => {
    const text = 'pergunta;opção 1;opção 2;corretas\nFunção?;Sim;Não;1\n';
    const bytes = Uint8Array.from([...text].map((c) => c.charCodeAt(0)));
    const { rows } = await parseQuestionsCsv(new File([bytes], 'perguntas.csv', { type: 'text/csv' }));
    expect(rows[0]).toMatchObject({ statement: 'Função?', options: [{ text: 'Sim' }, { text: 'Não' }], errors: [] });
  });
});
