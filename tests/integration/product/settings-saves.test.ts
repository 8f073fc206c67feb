// Issue 46, item 6: a setting's switch saves at once, on its own. Each save writes only the columns it
// names (an upsert merges them into the school's row), so a switch never puts back a sender name the
// sender's form changed, and saving the same row again and again works (the second save of
// Configurações → E-mails once failed with a database error). The SPA's own query functions, run as the
// school's admin; what the database keeps is read with SQL.
import { describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { SCHOOL } from '../rls/seed.ts';
import { fetchSchoolEmailSettings, saveSchoolEmailSettings } from '../../../src/features/email-preferences/api/queries.ts';
import { fetchDiscussionSettings, saveDiscussionSetting } from '../../../src/features/settings/api/queries.ts';

const backend = useBackend();
const admin = backend.signedIn('adminDemo');
const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) => (await backend.server.ctx.engine.query<T>(text, params)).rows;

describe('settings saved one at a time', () => {
  it('Configurações → E-mails: switches and the sender save in turns, each keeping what the others saved', async () => {
    await sql('delete from public.school_email_settings where school_id = $1', [SCHOOL.demo]);
    // The first save creates the row, the others update it.
    await saveSchoolEmailSettings(admin, SCHOOL.demo, { disabled_kinds: ['we_miss_you'] });
    await saveSchoolEmailSettings(admin, SCHOOL.demo, { sender_name: 'Equipe Demo', reply_to: 'ola@escola-demo.com.br' });
    await saveSchoolEmailSettings(admin, SCHOOL.demo, { disabled_kinds: ['we_miss_you', 'new_enrollment'] });
    await saveSchoolEmailSettings(admin, SCHOOL.demo, { disabled_kinds: ['new_enrollment'] });
    await saveSchoolEmailSettings(admin, SCHOOL.demo, { sender_name: 'Escola Demo', reply_to: 'ola@escola-demo.com.br' });
    expect(await fetchSchoolEmailSettings(admin, SCHOOL.demo)).toEqual({ disabled_kinds: ['new_enrollment'], sender_name: 'Escola Demo', reply_to: 'ola@escola-demo.com.br' });
    expect(await sql('select disabled_kinds, sender_name, reply_to from public.school_email_settings where school_id = $1', [SCHOOL.demo])).toEqual([
      { disabled_kinds: ['new_enrollment'], sender_name: 'Escola Demo', reply_to: 'ola@escola-demo.com.br' },
    ]);
  });

  it('Configurações → Comentários e ranking: each switch saves its own column, again and again', async () => {
    await sql('delete from public.school_discussion_settings where school_id = $1', [SCHOOL.demo]);
    await saveDiscussionSetting(admin, SCHOOL.demo, { ranking_enabled: true });
    await saveDiscussionSetting(admin, SCHOOL.demo, { comments_require_approval: true });
    await saveDiscussionSetting(admin, SCHOOL.demo, { ranking_enabled: false });
    await saveDiscussionSetting(admin, SCHOOL.demo, { ranking_enabled: true });
    // "Ranking por turma" (issue 40) is one more switch of the same row.
    await saveDiscussionSetting(admin, SCHOOL.demo, { ranking_by_turma: true });
    await saveDiscussionSetting(admin, SCHOOL.demo, { ranking_by_turma: false });
    expect(await fetchDiscussionSettings(admin, SCHOOL.demo)).toEqual({ comments_require_approval: true, ranking_enabled: true, ranking_by_turma: false, discussions_by_turma: false });
    expect(
      await sql('select comments_require_approval, ranking_enabled, ranking_by_turma from public.school_discussion_settings where school_id = $1', [SCHOOL.demo]),
    ).toEqual([{ comments_require_approval: true, ranking_enabled: true, ranking_by_turma: false }]);
  });
});
