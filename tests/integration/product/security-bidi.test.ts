// Issue 37, hole 9, the database's side: bidirectional controls (U+202A–U+202E, U+2066–U+2069,
// U+200E, U+200F, U+061C) are removed from what a student writes for others to read — their name,
// phone and address, their comments — whatever the way in (sign-up metadata, a profile edit, a
// comment, an edit), so every reader (the SPA, e-mails, notifications, certificates) gets text that
// cannot reorder itself. Rows written before the migration are fixed by it. Each attack is checked in
// the database; the controls prove accents, Arabic, Hebrew and joiners are kept as written.
// (The rendering side: src/concepts/user-text.test.ts and tests/e2e/comment-links.spec.ts.)
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Engine } from '../../../local-supabase/db/engine.ts';
import { useBackend } from '../harness.ts';
import { COURSE, LESSON, SCHOOL } from '../rls/seed.ts';

const PASSWORD = 'senha-bidi-123';
const RLO = '\u202E';
const PDF = '\u202C';
const RLI = '\u2067';
const PDI = '\u2069';
const CONTROLS = '\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069\u200E\u200F\u061C';
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const BIDI_CONTROL = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

const backend = useBackend();
const service = backend.service();
let db: Engine;

const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
async function sql<T = Record<string, unknown>>(text: string, params: unknown[] = []) {
  return (await db.query<T>(text, params)).rows;
}
async function must<T>(p: PromiseLike<{ data: T; error: unknown }>): Promise<T> {
  const { data, error } = await p;
  if (error) throw new Error(JSON.stringify(error));
  return data;
}

/** A student of the demo school, enrolled in Excel, signed in. */
async function student(name: string) {
  const email = `bidi.${tag()}@exemplo.com.br`;
  const created = await service.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { name, school_id: SCHOOL.demo } });
  if (created.error) throw created.error;
  const id = created.data.user!.id;
  await must(service.from('enrollments').insert({ user_id: id, course_id: COURSE.excel, status: 'ACTIVE' }).select('id'));
  return { id, client: await backend.signIn(email, PASSWORD) };
}

type Row = { id: string; comment: string; author_name: string; edited_at: Date | string | null };
const post = (s: { id: string; client: SupabaseClient }, comment: string, parentId?: string) =>
  s.client
    .from('lesson_comments')
    .insert({ user_id: s.id, lesson_id: LESSON.excelText, comment, ...(parentId ? { parent_id: parentId } : {}) })
    .select('id, comment, author_name, edited_at')
    .single();
const stored = async (id: string) => (await sql<Row>('select id, comment, author_name, edited_at from public.lesson_comments where id = $1', [id]))[0]!;
const profileOf = async (id: string) => (await sql<{ name: string; phone: string | null; address: string | null }>('select name, phone, address from public.profiles where id = $1', [id]))[0]!;

beforeAll(async () => {
  db = backend.server.ctx.engine;
});

describe('an attacker writes bidirectional controls', () => {
  it('in their name, phone and address: at sign-up and when they edit their profile, none is stored', async () => {
    const caio = await student(`Caio ${RLO}oãçartsinimdA`);
    expect(await profileOf(caio.id)).toEqual({ name: 'Caio oãçartsinimdA', phone: null, address: null });

    const { error } = await caio.client
      .from('profiles')
      .update({ name: `  ${RLI}Equipe${PDI} Escola Demo ${CONTROLS}`, phone: `${RLO}8888-9999${PDF}`, address: `Rua ${RLO}sotnaS${PDF}, 10` })
      .eq('id', caio.id);
    expect(error).toBeNull();
    expect(await profileOf(caio.id)).toEqual({ name: 'Equipe Escola Demo', phone: '8888-9999', address: 'Rua sotnaS, 10' });
  });

  it('in a comment, a reply and an edit: stored without them, and so are the name and excerpt of the notification', async () => {
    const ana = await student('Ana Pergunta');
    const caio = await student(`Caio ${RLO}oãçartsinimdA`);
    const question = (await must(post(ana, 'Onde encontro a planilha?'))) as Row;

    const trick = `Aqui: ${RLO}https://evil.example/?rb.moc.omed-alocse//:sptth`;
    const reply = (await must(post(caio, trick, question.id))) as Row;
    expect(await stored(reply.id)).toMatchObject({ comment: 'Aqui: https://evil.example/?rb.moc.omed-alocse//:sptth', author_name: 'Caio oãçartsinimdA', edited_at: null });
    // Ana is told of the reply: by the stored name, with the stored text.
    const [notice] = await sql<{ actor_name: string; excerpt: string }>(
      "select actor_name, excerpt from public.notifications where recipient_id = $1 and comment_id = $2 and kind = 'comment_reply'",
      [ana.id, reply.id],
    );
    expect(notice).toEqual({ actor_name: 'Caio oãçartsinimdA', excerpt: 'Aqui: https://evil.example/?rb.moc.omed-alocse//:sptth' });

    const edited = await caio.client.from('lesson_comments').update({ comment: `Veja ${RLI}https://evil.example${PDI} \u200F` }).eq('id', reply.id);
    expect(edited.error).toBeNull();
    expect(await stored(reply.id)).toMatchObject({ comment: 'Veja https://evil.example', edited_at: expect.anything() });

    // Made of controls only, it is an empty comment: refused, nothing stored.
    const empty = await post(caio, ` ${CONTROLS} `);
    expect(empty.error).toMatchObject({ code: '23514', message: expect.stringContaining('lesson_comments_comment_length') });
    expect(await sql("select 1 from public.lesson_comments where user_id = $1 and comment not like 'Veja%'", [caio.id])).toEqual([]);
  });
});

describe('what people legitimately write is kept', () => {
  it('accents, Arabic and Hebrew letters, joiners and emoji are stored as written', async () => {
    const jose = await student('José da Conceição');
    expect((await profileOf(jose.id)).name).toBe('José da Conceição');
    const texts = ['هل يمكن شرح الدالة مرة أخرى؟', 'איך משתמשים בפונקציה הזאת?', 'می‌خواهم یاد بگیرم', 'Valeu! 👩‍💻 https://exemplo.com.br/procv'];
    for (const text of texts) {
      const row = (await must(post(jose, text))) as Row;
      expect(await stored(row.id)).toMatchObject({ comment: text, author_name: 'José da Conceição', edited_at: null });
    }
    const arabicName = await service.from('profiles').update({ name: 'محمد Conceição' }).eq('id', jose.id).select('name').single();
    expect(arabicName.data).toEqual({ name: 'محمد Conceição' });
  });
});

describe('rows written before the migration', () => {
  it('are fixed by its data fix: names, comments (not marked edited), notifications and certificates', async () => {
    const bia = await student('Bia Antes');
    const ana = await student('Ana Antes');
    const question = (await must(post(ana, 'Pergunta antiga'))) as Row;
    const reply = (await must(post(bia, 'Resposta antiga', question.id))) as Row;
    const lonely = (await must(post(bia, 'Só controles'))) as Row;
    const code = Array.from({ length: 6 }, () => Array.from({ length: 4 }, () => CROCKFORD[Math.floor(Math.random() * 32)]).join('')).join('-');
    const [cert] = await sql<{ id: string }>(
      `insert into public.certificates (code, user_id, course_id, school_id, student_name, course_title, school_name, completed_at, workload_hours)
       values ($1, $2, null, $3, 'Bia Antes', 'Excel Essencial', 'Escola Demo', now(), 10) returning id`,
      [code, bia.id, SCHOOL.demo],
    );

    // As the schema before it allowed: controls written straight into each column.
    await db.exec(`
      alter table public.profiles disable trigger profiles_bidi_controls;
      alter table public.lesson_comments disable trigger lesson_comments_bidi_controls;
      alter table public.certificates disable trigger certificates_keep_snapshot;
      update public.profiles set name = 'Bia ${RLO}oãçartsinimdA', address = 'Rua ${RLO}A' where id = '${bia.id}';
      update public.lesson_comments set comment = 'Resposta ${RLO}antiga' where id = '${reply.id}';
      update public.lesson_comments set edited_at = null where id = '${reply.id}';
      update public.lesson_comments set comment = '${RLO}${PDF}' where id = '${lonely.id}';
      update public.notifications set actor_name = 'Bia ${RLO}oãçartsinimdA', excerpt = 'Resposta ${RLO}antiga' where comment_id = '${reply.id}';
      update public.certificates set student_name = 'Bia ${RLO}oãçartsinimdA' where id = '${cert!.id}';
      alter table public.certificates enable trigger certificates_keep_snapshot;
      alter table public.lesson_comments enable trigger lesson_comments_bidi_controls;
      alter table public.profiles enable trigger profiles_bidi_controls;`);
    expect((await stored(reply.id)).author_name).toMatch(BIDI_CONTROL);

    const migration = readFileSync(path.join(import.meta.dirname, '../../../supabase/migrations/20261128000500_bidi_controls.sql'), 'utf8');
    const dataFix = migration.slice(migration.indexOf('-- ── Rows written before'));
    expect(dataFix).toContain('update public.profiles');
    await db.exec(dataFix);

    expect(await profileOf(bia.id)).toMatchObject({ name: 'Bia oãçartsinimdA', address: 'Rua A' });
    expect(await stored(reply.id)).toEqual({ id: reply.id, comment: 'Resposta antiga', author_name: 'Bia oãçartsinimdA', edited_at: null });
    // Left as it was: without its controls it would be empty (the SPA shows it without them).
    expect((await stored(lonely.id)).comment).toBe(`${RLO}${PDF}`);
    const [notice] = await sql<{ actor_name: string; excerpt: string }>('select actor_name, excerpt from public.notifications where comment_id = $1', [reply.id]);
    expect(notice).toEqual({ actor_name: 'Bia oãçartsinimdA', excerpt: 'Resposta antiga' });
    const [certificate] = await sql<Record<string, unknown>>('select code, student_name, course_title, school_name from public.certificates where id = $1', [cert!.id]);
    expect(certificate).toEqual({ code, student_name: 'Bia oãçartsinimdA', course_title: 'Excel Essencial', school_name: 'Escola Demo' });
    // And the certificate is a snapshot again.
    await expect(db.query("update public.certificates set student_name = 'Outra' where id = $1", [cert!.id])).rejects.toMatchObject({ code: '42501' });
  });
});
