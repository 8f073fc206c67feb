// Issue 39: whether lesson videos show the watermark with the viewer's name is the school's choice
// (schools.video_watermark, on by default), changed by the school's staff only: a student who could
// turn it off would record the lessons without their name on them.
import { describe, expect, it } from 'vitest';
import { PROFILE_WITH_SCHOOL_SELECT } from '../../../src/platform/session-urls.ts';
import { useBackend } from '../harness.ts';
import { SCHOOL, USER } from '../rls/seed.ts';

const backend = useBackend();
const aluno = backend.signedIn('aluno');
const adminRival = backend.signedIn('adminRival');
const adminDemo = backend.signedIn('adminDemo');

const kept = async (school: string) =>
  (await backend.sql<{ video_watermark: boolean }>('select video_watermark from public.schools where id = $1', [school]))[0]!.video_watermark;

/** What the student's session reads with its profile (the lesson player's source). */
async function studentSees(): Promise<boolean | undefined> {
  const { data, error } = await aluno.from('profiles').select(PROFILE_WITH_SCHOOL_SELECT).eq('id', USER.aluno).single();
  if (error) throw error;
  return (data as { school: { video_watermark?: boolean } | null }).school?.video_watermark;
}

describe('schools.video_watermark', () => {
  it('is on for every school unless it says otherwise, and the student reads it with the profile', async () => {
    expect(await kept(SCHOOL.demo)).toBe(true);
    expect(await kept(SCHOOL.rival)).toBe(true);
    expect(await studentSees()).toBe(true);
  });

  it('a student cannot turn it off, nor another school’s admin; the school’s admin can, and the student then reads it off', async () => {
    const byStudent = await aluno.from('schools').update({ video_watermark: false }).eq('id', SCHOOL.demo).select('id');
    expect(byStudent.data ?? []).toEqual([]);
    const byRival = await adminRival.from('schools').update({ video_watermark: false }).eq('id', SCHOOL.demo).select('id');
    expect(byRival.data ?? []).toEqual([]);
    expect(await kept(SCHOOL.demo)).toBe(true);

    const byAdmin = await adminDemo.from('schools').update({ video_watermark: false }).eq('id', SCHOOL.demo).select('video_watermark');
    expect(byAdmin.error).toBeNull();
    expect(byAdmin.data).toEqual([{ video_watermark: false }]);
    expect(await kept(SCHOOL.demo)).toBe(false);
    expect(await studentSees()).toBe(false);
  });
});
