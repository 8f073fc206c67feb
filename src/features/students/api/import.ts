// One row of the CSV import (issue 10): create the student, enrolled in the chosen course
// (admin-create-student), or find the existing one of the school and enroll them. Issue 19: an
// existing account whose e-mail was never confirmed may be a stranger's sign-up with that address; the
// function says so (409 with `pending_confirmation`), the database keeps the enrollment PENDING until
// the address is confirmed, and the row is reported as waiting, never as a student with access.
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

/** Creates (or finds) one student and, when asked, enrolls them; never throws. */
export async function importStudent(row: ImportRow, schoolId: string, courseId: string): Promise<ImportOutcome> {
  let userId: string;
  let result: ImportOutcome['result'];
  try {
    // A new student is enrolled by the function itself, before their "Acesso liberado" e-mail is
    // queued, so the e-mail lists the course.
    await createWithRetry({ name: row.name, email: row.email, cpf: row.cpf || null, phone: row.phone || null, school_id: schoolId, course_id: courseId || null });
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
      if ((await enrollStudent(supabase, { user_id: userId, course_id: courseId })) === 'PENDING') result = 'pending';
    } catch (e) {
      // Already enrolled in that course: nothing to do for this row.
      if (!isUniqueViolation(e)) return { row, result: 'failed', reason: `Cadastro feito, mas a matrícula falhou: ${describeError(e)}` };
    }
  }
  return { row, result };
}
