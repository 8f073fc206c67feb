// Importar CSV (issue 23): pick a `pergunta;opção 1;…;corretas` file, see every row checked (with the
// type each question gets, or what is wrong with it in pt-BR), and import only a file without errors,
// in one request, after the existing questions. The rules are in lib/csv-import.ts.
import { useId, useState } from 'react';
import { Download, FileUp, Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { downloadCsv } from '@/utils/csv';
import { errorMessage } from '@/platform/errors';
import { useImportQuestions } from '../../api/admin-hooks';
import { HEADER_EXAMPLE, parseQuestionsCsv, type ImportedQuestion } from '../../lib/csv-import';
import { KIND_LABEL } from '../../schemas';

const MAX_FILE_BYTES = 1024 * 1024;

const TEMPLATE = [
  'pergunta;opção 1;opção 2;opção 3;opção 4;corretas;explicação',
  'Qual função soma um intervalo de células?;SOMA;MÉDIA;CONT.SE;PROCV;1;SOMA(A1:A10) soma as células do intervalo.',
  'Quais destas são funções de texto?;ESQUERDA;SOMA;DIREITA;CONCATENAR;1,3,4;',
  'O Excel guarda datas como números.;Verdadeiro;Falso;;;1;',
].join('\r\n');

export function ImportQuestionsDialog({
  quizId,
  startPosition,
  onClose,
}: {
  quizId: string;
  startPosition: number;
  onClose: () => void;
}) {
  const id = useId();
  const importing = useImportQuestions();
  const [fileName, setFileName] = useState<string | null>(null);
  const [rows, setRows] = useState<ImportedQuestion[] | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const invalid = rows?.filter((r) => r.errors.length > 0) ?? [];
  const ready = !!rows && rows.length > 0 && invalid.length === 0;

  async function pick(file: File | undefined) {
    if (!file) return;
    setFileName(file.name);
    setRows(null);
    if (file.size > MAX_FILE_BYTES) return setFileError('Arquivo muito grande! Tamanho máximo: 1MB');
    try {
      const parsed = await parseQuestionsCsv(file);
      setFileError(parsed.fileError);
      setRows(parsed.fileError ? null : parsed.rows);
    } catch (e) {
      setFileError(`Não foi possível ler o arquivo: ${errorMessage(e)}`);
    }
  }

  return (
    <Dialog open onOpenChange={(o) => !o && !importing.isPending && onClose()}>
      <DialogContent className="max-w-3xl" onInteractOutside={(e) => e.preventDefault()}>
        <DialogHeader>
          <DialogTitle>Importar perguntas</DialogTitle>
          <DialogDescription>
            Arquivo CSV separado por ponto e vírgula, com o cabeçalho {HEADER_EXAMPLE} (de 2 a 10 opções e, se
            quiser, uma coluna explicação). Em corretas, os números das opções corretas separados por vírgula: 1 ou
            1,3. Verdadeiro e Falso como opções fazem uma pergunta de verdadeiro ou falso; mais de uma correta, uma
            de múltipla escolha.
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-4">
          <Button
            type="button"
            variant="link"
            className="h-auto w-fit p-0"
            onClick={() => downloadCsv('modelo-perguntas.csv', `\ufeff${TEMPLATE}`)}
          >
            <Download aria-hidden="true" /> Baixar modelo de CSV
          </Button>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-file`}>Arquivo CSV</Label>
            <input
              id={`${id}-file`}
              type="file"
              accept=".csv,text/csv"
              disabled={importing.isPending}
              className="text-sm file:mr-3 file:cursor-pointer file:rounded-lg file:border file:border-border file:bg-white file:px-3 file:py-2 file:text-sm file:font-medium"
              onChange={(e) => {
                void pick(e.target.files?.[0]);
                e.target.value = '';
              }}
            />
            {fileError && (
              <p role="alert" className="text-sm font-medium text-destructive">
                {fileError}
              </p>
            )}
          </div>
          {rows && (
            <>
              <p className="text-sm" aria-live="polite">
                {fileName}: {rows.length} {rows.length === 1 ? 'pergunta' : 'perguntas'}
                {invalid.length > 0
                  ? `, ${invalid.length} com erro. Corrija o arquivo e escolha-o de novo: só um arquivo sem erros é importado.`
                  : ', nenhuma com erro.'}
              </p>
              {invalid.length > 0 && (
                <div role="alert" className="max-h-40 overflow-auto">
                  <ul className="grid gap-1 text-sm text-destructive" aria-label="Erros do arquivo">
                    {invalid.flatMap((r) => r.errors).map((message) => (
                      <li key={message}>{message}</li>
                    ))}
                  </ul>
                </div>
              )}
              <div className="max-h-64 overflow-auto rounded-lg border border-border">
                <table className="w-full min-w-[520px] text-left text-sm" aria-label="Prévia da importação">
                  <thead className="sticky top-0 bg-muted text-xs text-muted-foreground">
                    <tr>
                      <th className="px-3 py-2">Linha</th>
                      <th className="px-3 py-2">Pergunta</th>
                      <th className="px-3 py-2">Tipo</th>
                      <th className="px-3 py-2">Opções</th>
                      <th className="px-3 py-2">Situação</th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((r) => (
                      <tr key={r.line} className="border-t border-border align-top">
                        <td className="px-3 py-1.5 tabular-nums">{r.line}</td>
                        <td className="max-w-60 px-3 py-1.5 break-words">{r.statement}</td>
                        <td className="px-3 py-1.5">{KIND_LABEL[r.kind]}</td>
                        <td className="px-3 py-1.5">
                          {r.options.length} ({r.options.filter((o) => o.correct).length}{' '}
                          {r.options.filter((o) => o.correct).length === 1 ? 'correta' : 'corretas'})
                        </td>
                        <td className={r.errors.length ? 'px-3 py-1.5 text-destructive' : 'px-3 py-1.5 text-green-700'}>
                          {r.errors.length ? 'Com erro' : 'OK'}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )}
        </div>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onClose} disabled={importing.isPending}>
            Cancelar
          </Button>
          <Button
            type="button"
            disabled={!ready || importing.isPending}
            onClick={() => rows && importing.mutate({ quizId, startPosition, rows }, { onSuccess: onClose })}
          >
            {importing.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <FileUp aria-hidden="true" />}
            {ready ? `Importar ${rows.length} ${rows.length === 1 ? 'pergunta' : 'perguntas'}` : 'Importar perguntas'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
