// One row of the CSV import (issue 10): create the student, enrolled in the chosen course
// (admin-create-student), or find the existing one of the school and enroll them. Issue 19: an
// existing account whose e-mail was never confirmed may be a stranger's sign-up with that address; the
// function says so (409 with `pending_confirmation`), the database keeps the enrollment PENDING until
// the address is confirmed, and the row is reported as waiting, never as a student with access.
// Issue 40: a "turma" column (name or id of a turma of the chosen course, found by turma_for) puts the
// student in it; a turma that is not found fails the row before anything is written, in pt-BR.
import { FunctionCallError, invokeFunction } from '@/platform/functions';
import { supabase } from '@/platform/supabase';
import { errorMessage } from '@/platform/errors';
import { enrollStudent } from '@/concepts/enrollment';
import { describeError, isUniqueViolation } from '@/platform/errors';
import type { ImportRow } from '../lib/csv-import';

export interface ImportOutcome {
  row: ImportRow;
  result: 'created' | 'existed' | 'pending' | 'failed';
  reason?: string;
}

/** A refusal (4xx) is final; a dropped connection or a 5xx is worth another try. */
function transient(e: unknown): boolean {
  return e instanceof FunctionCallError && (e.status === null || e.status >= 500);
}

async function createWithRetry(body: Record<string, unknown>): Promise<{ user_id: string }> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await invokeFunction<{ user_id: string }>('admin-create-student', body);
    } catch (e) {
      if (!transient(e) || attempt >= 3) throw e;
      await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
    }
  }
}

/** The turma the row names, or a pt-BR reason it cannot be used. */
async function rowTurma(row: ImportRow, courseId: string): Promise<{ id: string | null } | { reason: string }> {
  if (!row.turma) return { id: null };
  if (!courseId) return { reason: 'Escolha o curso para matricular na turma' };
  const { data, error } = await supabase.rpc('turma_for', { p_course_id: courseId, p_turma: row.turma });
  if (error) return { reason: describeError(error) };
  return data ? { id: data } : { reason: `Turma não encontrada neste curso: "${row.turma}"` };
}

/** Puts the student's enrollment in the course into the turma (move_enrollment_to_turma). */
async function moveIntoTurma(userId: string, courseId: string, turmaId: string): Promise<void> {
  const { data, error } = await supabase.from('enrollments').select('id, turma_id').eq('user_id', userId).eq('course_id', courseId).maybeSingle();
  if (error) throw error;
  if (!data) throw new Error('Matrícula não encontrada');
  if (data.turma_id === turmaId) return;
  const moved = await supabase.rpc('move_enrollment_to_turma', { p_enrollment_id: data.id, p_turma_id: turmaId });
  if (moved.error) throw moved.error;
}

/** Creates (or finds) one student and, when asked, enrolls them (in the row's turma, if any); never throws. */
export async function importStudent(row: ImportRow, schoolId: string, courseId: string): Promise<ImportOutcome> {
  let userId: string;
  let result: ImportOutcome['result'];
  const turma = await rowTurma(row, courseId);
  if ('reason' in turma) return { row, result: 'failed', reason: turma.reason };
  const turmaId = turma.id;
  try {
    // A new student is enrolled by the function itself, before their "Acesso liberado" e-mail is
    // queued, so the e-mail lists the course.
    const created = await createWithRetry({ name: row.name, email: row.email, cpf: row.cpf || null, phone: row.phone || null, school_id: schoolId, course_id: courseId || null });
    if (turmaId) {
      try {
        await moveIntoTurma(created.user_id, courseId, turmaId);
      } catch (e) {
        return { row, result: 'failed', reason: `Cadastro e matrícula feitos, mas a turma falhou: ${describeError(e)}` };
      }
    }
    return { row, result: 'created' };
  } catch (e) {
    if (e instanceof FunctionCallError && e.status === 409 && typeof e.body?.user_id === 'string') {
      userId = e.body.user_id;
      result = e.body.pending_confirmation === true ? 'pending' : 'existed';
    } else {
      return { row, result: 'failed', reason: errorMessage(e) };
    }
  }
  if (courseId) {
    try {
      if ((await enrollStudent(supabase, { user_id: userId, course_id: courseId, turma_id: turmaId })) === 'PENDING') result = 'pending';
    } catch (e) {
      // Already enrolled in that course: nothing to do for this row, but its turma.
      if (!isUniqueViolation(e)) return { row, result: 'failed', reason: `Cadastro feito, mas a matrícula falhou: ${describeError(e)}` };
      if (turmaId) {
        try {
          await moveIntoTurma(userId, courseId, turmaId);
        } catch (moveError) {
          return { row, result: 'failed', reason: `Já matriculado, mas a turma falhou: ${describeError(moveError)}` };
        }
      }
    }
  }
  return { row, result };
}
