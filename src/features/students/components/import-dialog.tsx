import { useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { FileUp, Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { ProgressBar } from '@/components/ui/progress-bar';
import { Select } from '@/components/ui/select';
import { errorMessage } from '@/platform/errors';
import { studentKeys } from '../api/hooks';
import { importStudent, type ImportOutcome as Outcome } from '../api/import';
import { parseStudentsCsv, type ImportRow } from '../lib/csv-import';
import { rootKeys } from '@/platform/query-keys';
import { CourseOptions, type CourseOption } from '@/concepts/course-filter';

const CONCURRENCY = 3;

export function ImportStudentsDialog({ schoolId, courses, onClose }: { schoolId: string; courses: CourseOption[]; onClose: () => void }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [fileName, setFileName] = useState<string | null>(null);
  const [rows, setRows] = useState<ImportRow[] | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [courseId, setCourseId] = useState('');
  const [done, setDone] = useState(0);
  const [running, setRunning] = useState(false);
  const [outcomes, setOutcomes] = useState<Outcome[] | null>(null);
  const valid = rows?.filter((r) => r.errors.length === 0) ?? [];
  const invalid = rows?.filter((r) => r.errors.length > 0) ?? [];

  async function pick(file: File | undefined) {
    if (!file) return;
    setOutcomes(null);
    setFileName(file.name);
    if (file.size > 2 * 1024 * 1024) return (setRows(null), setFileError('Arquivo muito grande! Tamanho máximo: 2MB'));
    try {
      const parsed = await parseStudentsCsv(file);
      if (parsed.missingColumns.length) return (setRows(null), setFileError(`Colunas obrigatórias ausentes: ${parsed.missingColumns.join(', ')}`));
      if (parsed.rows.length === 0) return (setRows(null), setFileError('O arquivo não tem linhas de alunos'));
      setFileError(null);
      setRows(parsed.rows);
    } catch (e) {
      setRows(null);
      setFileError(`Não foi possível ler o arquivo: ${errorMessage(e)}`);
    }
  }

  async function run() {
    setRunning(true);
    setDone(0);
    const queue = [...valid];
    const results: Outcome[] = invalid.map((row) => ({ row, result: 'failed', reason: row.errors.join('; ') }));
    await Promise.all(
      Array.from({ length: Math.min(CONCURRENCY, queue.length) }, async () => {
        for (let row = queue.shift(); row; row = queue.shift()) {
          results.push(await importStudent(row, schoolId, courseId));
          setDone((n) => n + 1);
        }
      }),
    );
    results.sort((a, b) => a.row.line - b.row.line);
    setOutcomes(results);
    setRunning(false);
    void queryClient.invalidateQueries({ queryKey: studentKeys.all });
    void queryClient.invalidateQueries({ queryKey: rootKeys.enrollments });
  }

  const count = (r: Outcome['result']) => outcomes?.filter((o) => o.result === r).length ?? 0;
  return (
    <Dialog open onOpenChange={(o) => !o && !running && onClose()}>
      <DialogContent className="max-w-3xl" onInteractOutside={(e) => e.preventDefault()}>
        <DialogHeader>
          <DialogTitle>Importar alunos</DialogTitle>
          <DialogDescription>
            Arquivo CSV com cabeçalho: nome, email, cpf, telefone e, se quiser, turma (o nome ou o código de uma turma do curso escolhido), separados por ; ou ,. A senha inicial de cada aluno é o CPF, se informado, ou a senha padrão. Importar o mesmo arquivo de novo não duplica
            ninguém.
          </DialogDescription>
        </DialogHeader>
        {!outcomes && (
          <div className="grid gap-4">
            <div className="grid gap-2">
              <Label htmlFor={`${id}-file`}>Arquivo CSV</Label>
              <input
                id={`${id}-file`}
                type="file"
                accept=".csv,text/csv"
                disabled={running}
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
                  {fileName}: {rows.length} {rows.length === 1 ? 'linha' : 'linhas'}, {valid.length} {valid.length === 1 ? 'válida' : 'válidas'}
                  {invalid.length > 0 && `, ${invalid.length} com erro (não serão importadas)`}.
                </p>
                <div className="max-h-64 overflow-auto rounded-lg border border-border">
                  <table className="w-full min-w-[560px] text-left text-sm" aria-label="Prévia da importação">
                    <thead className="sticky top-0 bg-muted text-xs text-muted-foreground">
                      <tr>
                        <th className="px-3 py-2">Linha</th>
                        <th className="px-3 py-2">Nome</th>
                        <th className="px-3 py-2">E-mail</th>
                        <th className="px-3 py-2">CPF</th>
                        <th className="px-3 py-2">Situação</th>
                      </tr>
                    </thead>
                    <tbody>
                      {rows.map((r) => (
                        <tr key={r.line} className="border-t border-border">
                          <td className="px-3 py-1.5 tabular-nums">{r.line}</td>
                          <td className="px-3 py-1.5">{r.name}</td>
                          <td className="px-3 py-1.5">{r.email}</td>
                          <td className="px-3 py-1.5">{r.cpf}</td>
                          <td className={r.errors.length ? 'px-3 py-1.5 text-destructive' : 'px-3 py-1.5 text-green-700'}>{r.errors.length ? r.errors.join('; ') : 'OK'}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
                <div className="grid gap-2 sm:max-w-sm">
                  <Label htmlFor={`${id}-course`}>Matricular todos no curso (opcional)</Label>
                  <Select id={`${id}-course`} value={courseId} onChange={(e) => setCourseId(e.target.value)} disabled={running}>
                    <option value="">Não matricular</option>
                    <CourseOptions courses={courses} />
                  </Select>
                </div>
                {running && (
                  <div className="grid gap-1" role="status">
                    <ProgressBar value={valid.length ? (100 * done) / valid.length : 100} label="Progresso da importação" />
                    <span className="text-xs text-muted-foreground">
                      {done} de {valid.length} alunos
                    </span>
                  </div>
                )}
              </>
            )}
          </div>
        )}
        {outcomes && (
          <div className="grid gap-3" aria-live="polite">
            <ul className="grid gap-1 text-sm" aria-label="Resultado da importação">
              <li>
                <strong>{count('created')}</strong> {count('created') === 1 ? 'aluno criado' : 'alunos criados'}
              </li>
              <li>
                <strong>{count('existed')}</strong> já {count('existed') === 1 ? 'existia' : 'existiam'}
              </li>
              {count('pending') > 0 && (
                <li>
                  <strong>{count('pending')}</strong> aguardando confirmação do e-mail (sem acesso até o aluno confirmar)
                </li>
              )}
              <li>
                <strong>{count('failed')}</strong> com falha
              </li>
            </ul>
            {count('pending') > 0 && (
              <div className="max-h-56 overflow-auto rounded-lg border border-border">
                <table className="w-full text-left text-sm" aria-label="Aguardando confirmação do e-mail">
                  <thead className="bg-muted text-xs text-muted-foreground">
                    <tr>
                      <th className="px-3 py-2">Linha</th>
                      <th className="px-3 py-2">E-mail</th>
                      <th className="px-3 py-2">Situação</th>
                    </tr>
                  </thead>
                  <tbody>
                    {outcomes
                      .filter((o) => o.result === 'pending')
                      .map((o) => (
                        <tr key={o.row.line} className="border-t border-border">
                          <td className="px-3 py-1.5 tabular-nums">{o.row.line}</td>
                          <td className="px-3 py-1.5">{o.row.email}</td>
                          <td className="px-3 py-1.5">Aguardando confirmação do e-mail</td>
                        </tr>
                      ))}
                  </tbody>
                </table>
              </div>
            )}
            {count('failed') > 0 && (
              <div className="max-h-56 overflow-auto rounded-lg border border-border">
                <table className="w-full text-left text-sm" aria-label="Linhas com falha">
                  <thead className="bg-muted text-xs text-muted-foreground">
                    <tr>
                      <th className="px-3 py-2">Linha</th>
                      <th className="px-3 py-2">E-mail</th>
                      <th className="px-3 py-2">Motivo</th>
                    </tr>
                  </thead>
                  <tbody>
                    {outcomes
                      .filter((o) => o.result === 'failed')
                      .map((o) => (
                        <tr key={o.row.line} className="border-t border-border">
                          <td className="px-3 py-1.5 tabular-nums">{o.row.line}</td>
                          <td className="px-3 py-1.5">{o.row.email || '—'}</td>
                          <td className="px-3 py-1.5 text-destructive">{o.reason}</td>
                        </tr>
                      ))}
                  </tbody>
                </table>
              </div>
            )}
          </div>
        )}
        <DialogFooter>
          {outcomes ? (
            <Button onClick={onClose}>Concluir</Button>
          ) : (
            <>
              <Button type="button" variant="outline" onClick={onClose} disabled={running}>
                Cancelar
              </Button>
              <Button onClick={() => void run()} disabled={running || valid.length === 0}>
                {running ? <Loader2 className="animate-spin" aria-hidden="true" /> : <FileUp aria-hidden="true" />}
                Importar {valid.length} {valid.length === 1 ? 'aluno' : 'alunos'}
              </Button>
            </>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
