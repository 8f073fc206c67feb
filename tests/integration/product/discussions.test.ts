// Lesson discussions (issue 26), as the database enforces them: replies one level deep, staff replies
// marked with their role and the answer staff mark, edits within 15 minutes, hiding with a reason only
// staff read, approval, the rate limit, notifications, Comentários for staff and the month's ranking.
// First what users do, then what an attacker tries, each checked by its effect in the database (the
// service role or SQL), not only by the answer the attacker got. Every test makes its own school
// (settings, staff, course, students) with the service role; the other school is the seed's.
import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Engine } from '../../../local-supabase/db/engine.ts';
import { addComment, deleteComment, editComment, fetchLessonComments, hideComment, markCommentAnswer } from '../../../src/features/discussions/api/queries.ts';
import { useBackend } from '../harness.ts';
import { COMMENT, EMAIL, LESSON, USER } from '../rls/seed.ts';

const PASSWORD = 'senha-forum-123';
const RATE_LIMIT = 'Você comentou muitas vezes em pouco tempo. Aguarde um minuto.';

const backend = useBackend();
const service = backend.service();
let db: Engine;

async function must<T>(p: PromiseLike<{ data: T; error: unknown }>): Promise<T> {
  const { data, error } = await p;
  if (error) throw new Error(JSON.stringify(error));
  return data;
}
const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
async function sql<T = Record<string, unknown>>(text: string, params: unknown[] = []) {
  return (await db.query<T>(text, params)).rows;
}

interface Account {
  id: string;
  name: string;
  client: SupabaseClient;
}

async function account(name: string, schoolId: string): Promise<{ id: string; email: string }> {
  const email = `forum.${tag()}@exemplo.com.br`;
  const created = await service.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { name, school_id: schoolId } });
  if (created.error) throw created.error;
  return { id: created.data.user!.id, email };
}

/** A school of its own: settings, a SCHOOL_ADMIN and an INSTRUCTOR, a PUBLISHED course with 4 lessons. */
async function makeSchool(settings: { comments_require_approval?: boolean; ranking_enabled?: boolean } = {}) {
  const t = tag();
  const school = (await must(service.from('schools').insert({ slug: `forum-${t}`, name: `Escola Fórum ${t}` }).select('id').single())) as { id: string };
  if (Object.keys(settings).length) await must(service.from('school_discussion_settings').insert({ school_id: school.id, ...settings }).select('school_id'));
  const staff = async (name: string, role: string): Promise<Account> => {
    const a = await account(name, school.id);
    await must(service.from('user_roles').insert({ user_id: a.id, school_id: school.id, role }).select('id'));
    return { id: a.id, name, client: await backend.signIn(a.email, PASSWORD) };
  };
  const admin = await staff('Ana Admin', 'SCHOOL_ADMIN');
  const instructor = await staff('Igor Instrutor', 'INSTRUCTOR');
  const course = (await must(service.from('courses').insert({ school_id: school.id, title: `Curso ${t}`, slug: `curso-${t}`, status: 'PUBLISHED' }).select('id').single())) as { id: string };
  const mod = (await must(service.from('modules').insert({ course_id: course.id, title: 'Módulo 1' }).select('id').single())) as { id: string };
  const lessons: string[] = [];
  for (let i = 0; i < 4; i++) {
    const l = (await must(service.from('lessons').insert({ module_id: mod.id, course_id: course.id, title: `Aula ${i + 1}`, order_index: i }).select('id').single())) as { id: string };
    lessons.push(l.id);
  }
  const student = async (name: string): Promise<Account> => {
    const a = await account(name, school.id);
    await must(service.from('enrollments').insert({ user_id: a.id, course_id: course.id, status: 'ACTIVE' }).select('id'));
    return { id: a.id, name, client: await backend.signIn(a.email, PASSWORD) };
  };
  return { id: school.id, admin, instructor, course: course.id, module: mod.id, lessons, student };
}

type Comment = {
  id: string;
  user_id: string;
  parent_id: string | null;
  comment: string;
  author_role: string | null;
  status: string;
  edited_at: string | null;
  hidden_at: string | null;
  marked_answer_at: string | null;
  created_at: string;
};
const COLUMNS = 'id, user_id, parent_id, comment, author_role, status, edited_at, hidden_at, marked_answer_at, created_at';

const post = (c: Account, lessonId: string, comment: string, parentId?: string) =>
  c.client.from('lesson_comments').insert({ user_id: c.id, lesson_id: lessonId, comment, ...(parentId ? { parent_id: parentId } : {}) }).select(COLUMNS).single();
const mustPost = async (c: Account, lessonId: string, comment: string, parentId?: string) => (await must(post(c, lessonId, comment, parentId))) as Comment;
/** What this caller reads of a lesson's comments (row-level security decides). */
const visible = async (c: SupabaseClient, lessonId: string) =>
  ((await must(c.from('lesson_comments').select(COLUMNS).eq('lesson_id', lessonId).order('created_at'))) as Comment[]).map((r) => r.id);
/** The row as it is in the database. */
const row = async (id: string) => (await sql<Comment>(`select ${COLUMNS} from public.lesson_comments where id = $1`, [id]))[0];

type Notification = { id: string; recipient_id: string; kind: string; comment_id: string; lesson_id: string; course_id: string; lesson_title: string; actor_name: string | null; excerpt: string; read_at: string | null };
const notificationsOf = (userId: string) =>
  sql<Notification>(`select id, recipient_id, kind, comment_id, lesson_id, course_id, lesson_title, actor_name, excerpt, read_at
                       from public.notifications where recipient_id = $1 order by created_at, kind`, [userId]);

beforeAll(async () => {
  db = backend.server.ctx.engine;
});

describe('what students and staff do', () => {
  it('keeps existing comments as published questions, and the lesson page still reads and adds comments', async () => {
    const seeded = await sql<Comment>(`select ${COLUMNS} from public.lesson_comments where id = any($1) order by id`, [[COMMENT.alunoPreview, COMMENT.instrutorPreview]]);
    expect(seeded.map((c) => [c.parent_id, c.status, c.hidden_at, c.edited_at, c.author_role])).toEqual([
      [null, 'published', null, null, null],
      [null, 'published', null, null, 'INSTRUCTOR'],
    ]);
    const aluna = await backend.signIn(EMAIL.aluna);
    const seen = await fetchLessonComments(aluna, LESSON.excelPreview);
    expect(seen.map((c) => c.id).sort()).toEqual([COMMENT.alunoPreview, COMMENT.instrutorPreview].sort());
    expect(seen.find((c) => c.id === COMMENT.instrutorPreview)!.author_role).toBe('INSTRUCTOR');

    // The lesson page's own insert (src/features/discussions/api/queries.ts), with approval off and on.
    const s = await makeSchool();
    const rui = await s.student('Rui');
    const added = await addComment(rui.client, { userId: rui.id, lessonId: s.lessons[0]!, comment: '  Primeira dúvida  ' });
    expect(added).toMatchObject({ comment: 'Primeira dúvida', author_name: 'Rui', user_id: rui.id });
    await must(service.from('school_discussion_settings').insert({ school_id: s.id, comments_require_approval: true }).select('school_id'));
    const waiting = await addComment(rui.client, { userId: rui.id, lessonId: s.lessons[0]!, comment: 'Segunda dúvida' });
    expect(waiting.status).toBe('pending');
    const mine = await fetchLessonComments(rui.client, s.lessons[0]!);
    expect(mine.map((c) => c.id)).toEqual([waiting.id, added.id]);
    expect((await row(waiting.id))!.status).toBe('pending');
  });

  it("the lesson page's discussion functions: replies, the answer, edits, hiding with a reason only staff read, deleting", async () => {
    const s = await makeSchool();
    const [ana, bia] = [await s.student('Ana Aluna'), await s.student('Bia Aluna')];
    const lesson = s.lessons[0]!;
    const question = await addComment(ana.client, { userId: ana.id, lessonId: lesson, comment: 'Onde fica o PROCV?' });
    const answer = await addComment(s.admin.client, { userId: s.admin.id, lessonId: lesson, comment: 'Na guia Fórmulas.', parentId: question.id });
    expect(answer).toMatchObject({ parent_id: question.id, author_role: 'SCHOOL_ADMIN', status: 'published' });
    await markCommentAnswer(s.admin.client, { id: answer.id, marked: true });
    const edited = await editComment(ana.client, { id: question.id, comment: '  Onde fica o PROCV no Excel?  ' });
    expect(edited).toMatchObject({ comment: 'Onde fica o PROCV no Excel?' });
    expect(edited.edited_at).not.toBeNull();

    const other = await addComment(bia.client, { userId: bia.id, lessonId: lesson, comment: 'Spam' });
    await hideComment(s.instructor.client, { id: other.id, reason: '  Propaganda  ' });
    const forStaff = await fetchLessonComments(s.admin.client, lesson);
    expect(forStaff.find((c) => c.id === other.id)!.lesson_comment_moderation).toMatchObject({ hidden_reason: 'Propaganda' });
    expect(forStaff.find((c) => c.id === answer.id)!.marked_answer_at).not.toBeNull();
    const forAna = await fetchLessonComments(ana.client, lesson);
    expect(forAna.map((c) => c.id)).toEqual([answer.id, question.id]);
    expect(forAna.every((c) => c.lesson_comment_moderation === null)).toBe(true);

    // Another student's comment is not hers to delete: refused, and the row is still there.
    await expect(deleteComment(ana.client, answer.id)).rejects.toMatchObject({ code: '42501' });
    expect(await row(answer.id)).toBeTruthy();
    await deleteComment(ana.client, question.id);
    expect(await row(question.id)).toBeUndefined();
    expect(await row(answer.id)).toBeUndefined();
  });

  it('replies one level deep; a staff reply carries its role and notifies the question as an answer', async () => {
    const s = await makeSchool();
    const [ana, bia] = [await s.student('Ana Aluna'), await s.student('Bia Aluna')];
    const lesson = s.lessons[0]!;
    const question = await mustPost(ana, lesson, 'Como faço um PROCV?');
    expect(question).toMatchObject({ parent_id: null, author_role: null, status: 'published' });

    const reply = await mustPost(bia, lesson, 'Também quero saber', question.id);
    const answer = await mustPost(s.instructor, lesson, 'Use =PROCV(valor; tabela; coluna; FALSO)', question.id);
    const adminNote = await mustPost(s.admin, lesson, 'Veja também a apostila', question.id);
    expect([reply.author_role, answer.author_role, adminNote.author_role]).toEqual([null, 'INSTRUCTOR', 'SCHOOL_ADMIN']);
    expect((await row(answer.id))!.parent_id).toBe(question.id);

    // A reply to a reply is refused, for students and staff alike.
    for (const who of [ana, s.instructor]) {
      const { error } = await post(who, lesson, 'Resposta da resposta', reply.id);
      expect(error).toMatchObject({ code: 'DC400', message: 'Só é possível responder a um comentário principal, não a uma resposta.' });
    }
    expect(await sql(`select 1 from public.lesson_comments where parent_id = $1`, [reply.id])).toEqual([]);
    // A reply names the question's lesson: another lesson is refused, none takes the question's.
    expect((await post(bia, s.lessons[1]!, 'Outra aula', question.id)).error).toMatchObject({ code: 'DC400' });
    const noLesson = (await must(bia.client.from('lesson_comments').insert({ user_id: bia.id, parent_id: question.id, comment: 'Sem aula' } as never).select('lesson_id').single())) as { lesson_id: string };
    expect(noLesson.lesson_id).toBe(lesson);

    // The question's author is told of each reply (not of their own), by kind.
    const told = await notificationsOf(ana.id);
    expect(told.map((n) => [n.kind, n.comment_id, n.actor_name])).toEqual([
      ['comment_reply', reply.id, 'Bia Aluna'],
      ['staff_answer', answer.id, 'Igor Instrutor'],
      ['staff_answer', adminNote.id, 'Ana Admin'],
      ['comment_reply', (await sql<{ id: string }>(`select id from public.lesson_comments where comment = 'Sem aula'`))[0]!.id, 'Bia Aluna'],
    ]);
    expect(told[1]).toMatchObject({ lesson_id: lesson, course_id: s.course, lesson_title: 'Aula 1', excerpt: 'Use =PROCV(valor; tabela; coluna; FALSO)', read_at: null });
    expect(await notificationsOf(bia.id)).toEqual([]);
  });

  it('staff mark one answer per question; marking another replaces it and tells the question’s author', async () => {
    const s = await makeSchool();
    const [ana, bia] = [await s.student('Ana'), await s.student('Bia')];
    const lesson = s.lessons[0]!;
    const question = await mustPost(ana, lesson, 'Qual fórmula soma uma coluna?');
    const studentReply = await mustPost(bia, lesson, 'A função SOMA');
    // (a question of its own above: now a reply)
    const byBia = await mustPost(bia, lesson, 'Use =SOMA(A:A)', question.id);
    const byStaff = await mustPost(s.instructor, lesson, '=SOMA(A1:A10) soma o intervalo', question.id);
    expect(studentReply.parent_id).toBeNull();

    await must(s.admin.client.rpc('mark_comment_answer', { p_comment_id: byStaff.id }));
    expect((await row(byStaff.id))!.marked_answer_at).not.toBeNull();
    await must(s.instructor.client.rpc('mark_comment_answer', { p_comment_id: byBia.id }));
    expect((await row(byBia.id))!.marked_answer_at).not.toBeNull();
    expect((await row(byStaff.id))!.marked_answer_at).toBeNull();
    expect(await sql(`select count(*)::int as n from public.lesson_comments where parent_id = $1 and marked_answer_at is not null`, [question.id])).toEqual([{ n: 1 }]);

    // A question is not an answer; unmarking clears it.
    expect((await s.admin.client.rpc('mark_comment_answer', { p_comment_id: question.id })).error).toMatchObject({ code: '22023' });
    // Ana heard of the staff reply once (written, then marked) and of Bia's reply, then of it as the answer.
    expect((await notificationsOf(ana.id)).map((n) => [n.kind, n.comment_id])).toEqual([
      ['comment_reply', byBia.id],
      ['staff_answer', byStaff.id],
      ['staff_answer', byBia.id],
    ]);
    await must(s.admin.client.rpc('mark_comment_answer', { p_comment_id: byBia.id, p_marked: false }));
    expect((await row(byBia.id))!.marked_answer_at).toBeNull();
  });

  it('authors edit within 15 minutes (marked edited) and delete their own comment; not after', async () => {
    const s = await makeSchool();
    const ana = await s.student('Ana');
    const lesson = s.lessons[0]!;
    const fresh = await mustPost(ana, lesson, 'Texto com erro');
    const edited = (await must(ana.client.from('lesson_comments').update({ comment: '  Texto corrigido ' }).eq('id', fresh.id).select(COLUMNS).single())) as Comment;
    expect(edited).toMatchObject({ comment: 'Texto corrigido', status: 'published' });
    expect(edited.edited_at).not.toBeNull();

    // Written 16 minutes ago (backdated by the service role): the text stays as it was.
    const old = (await must(service.from('lesson_comments').insert({ user_id: ana.id, lesson_id: lesson, comment: 'Comentário antigo', created_at: new Date(Date.now() - 16 * 60_000).toISOString() }).select('id').single())) as { id: string };
    const late = await ana.client.from('lesson_comments').update({ comment: 'Tarde demais' }).eq('id', old.id).select('id');
    expect(late.error).toMatchObject({ code: 'DC410', message: 'Só é possível editar um comentário nos primeiros 15 minutos.' });
    expect(await row(old.id)).toMatchObject({ comment: 'Comentário antigo', edited_at: null });
    // 14 minutes ago: still editable.
    const recent = (await must(service.from('lesson_comments').insert({ user_id: ana.id, lesson_id: lesson, comment: 'Quase no limite', created_at: new Date(Date.now() - 14 * 60_000).toISOString() }).select('id').single())) as { id: string };
    await must(ana.client.from('lesson_comments').update({ comment: 'Ainda dá tempo' }).eq('id', recent.id).select('id'));
    expect((await row(recent.id))!.comment).toBe('Ainda dá tempo');

    // Deleting one's own comment, even an old one.
    expect(await must(ana.client.from('lesson_comments').delete().eq('id', old.id).select('id'))).toEqual([{ id: old.id }]);
    expect(await row(old.id)).toBeUndefined();
  });

  it('with approval on, a comment waits: its author and staff see it, other students do not, until approved', async () => {
    const s = await makeSchool({ comments_require_approval: true });
    const [ana, bia] = [await s.student('Ana'), await s.student('Bia')];
    const lesson = s.lessons[0]!;
    // The client cannot publish it itself.
    const pending = (await must(ana.client.from('lesson_comments').insert({ user_id: ana.id, lesson_id: lesson, comment: 'Dúvida pendente', status: 'published' } as never).select(COLUMNS).single())) as Comment;
    expect(pending.status).toBe('pending');
    expect(await visible(ana.client, lesson)).toEqual([pending.id]);
    expect(await visible(bia.client, lesson)).toEqual([]);
    expect(await visible(s.instructor.client, lesson)).toEqual([pending.id]);
    // Staff comments are published at once.
    const staffNote = await mustPost(s.admin, lesson, 'Aviso da equipe');
    expect(staffNote.status).toBe('published');

    // Staff are told; a reply to a pending comment is refused.
    expect((await notificationsOf(s.admin.id)).map((n) => [n.kind, n.comment_id, n.read_at])).toEqual([['comment_pending', pending.id, null]]);
    expect((await notificationsOf(s.instructor.id)).map((n) => n.kind)).toEqual(['comment_pending']);
    expect((await post(bia, lesson, 'Respondendo', pending.id)).error).toMatchObject({ code: 'DC400' });
    expect((await s.admin.client.rpc('admin_comments', { p_school_id: s.id, p_filter: 'pending' })).data).toMatchObject([{ id: pending.id, status: 'pending', total_count: 1 }]);

    await must(s.instructor.client.rpc('approve_comment', { p_comment_id: pending.id }));
    expect((await row(pending.id))!.status).toBe('published');
    expect(await visible(bia.client, lesson)).toEqual([pending.id, staffNote.id]);
    expect((await notificationsOf(ana.id)).map((n) => [n.kind, n.comment_id])).toEqual([['comment_approved', pending.id]]);
    expect((await notificationsOf(s.admin.id))[0]!.read_at).not.toBeNull();

    // A pending reply tells the question's author only once it is published.
    const reply = await mustPost(bia, lesson, 'Minha resposta', pending.id);
    expect(reply.status).toBe('pending');
    expect((await notificationsOf(ana.id)).map((n) => n.kind)).toEqual(['comment_approved']);
    await must(s.admin.client.rpc('approve_comment', { p_comment_id: reply.id }));
    expect((await notificationsOf(ana.id)).map((n) => [n.kind, n.comment_id])).toEqual([['comment_approved', pending.id], ['comment_reply', reply.id]]);

    // An edit of a published comment waits for approval again.
    await must(ana.client.from('lesson_comments').update({ comment: 'Dúvida editada' }).eq('id', pending.id).select('id'));
    expect((await row(pending.id))!.status).toBe('pending');
    expect(await visible(bia.client, lesson)).toEqual([staffNote.id]);
    // Staff are told again (unread); the reply's notice stays read.
    expect((await notificationsOf(s.admin.id)).map((n) => [n.kind, n.comment_id, n.read_at === null])).toEqual([
      ['comment_pending', reply.id, false],
      ['comment_pending', pending.id, true],
    ]);
  });

  it('staff hide a comment with a reason: students no longer see it (nor its replies), staff see it and the reason', async () => {
    const s = await makeSchool();
    const [ana, bia] = [await s.student('Ana'), await s.student('Bia')];
    const lesson = s.lessons[0]!;
    const abusive = await mustPost(bia, lesson, 'Comentário ofensivo');
    const replyToIt = await mustPost(ana, lesson, 'Que isso?', abusive.id);
    const fine = await mustPost(ana, lesson, 'Dúvida normal');
    expect((await notificationsOf(bia.id)).map((n) => n.comment_id)).toEqual([replyToIt.id]);

    await must(s.admin.client.rpc('hide_comment', { p_comment_id: abusive.id, p_reason: 'Linguagem ofensiva' }));
    expect((await row(abusive.id))!.hidden_at).not.toBeNull();
    for (const who of [ana, bia]) expect(await visible(who.client, lesson)).toEqual([fine.id]);
    expect(await visible(s.instructor.client, lesson)).toEqual([abusive.id, replyToIt.id, fine.id]);
    // Its notifications go with it.
    expect(await notificationsOf(bia.id)).toEqual([]);
    // The reason: staff read it (the table and the list); a reply to the hidden comment is refused.
    expect(await must(s.instructor.client.from('lesson_comment_moderation').select('comment_id, hidden_reason, hidden_by'))).toEqual([
      { comment_id: abusive.id, hidden_reason: 'Linguagem ofensiva', hidden_by: s.admin.id },
    ]);
    const hidden = (await must(s.admin.client.rpc('admin_comments', { p_school_id: s.id, p_filter: 'hidden' }))) as { id: string; hidden_reason: string; hidden_by_name: string; total_count: number }[];
    expect(hidden).toMatchObject([{ id: abusive.id, hidden_reason: 'Linguagem ofensiva', hidden_by_name: 'Ana Admin', total_count: 1 }]);
    expect((await post(ana, lesson, 'Mais uma', abusive.id)).error).toMatchObject({ code: 'DC400' });

    await must(s.admin.client.rpc('unhide_comment', { p_comment_id: abusive.id }));
    expect(await visible(ana.client, lesson)).toEqual([abusive.id, replyToIt.id, fine.id]);
    expect(await sql(`select 1 from public.lesson_comment_moderation where comment_id = $1`, [abusive.id])).toEqual([]);

    // Staff delete any comment of their school (its replies go with it).
    expect(await must(s.instructor.client.from('lesson_comments').delete().eq('id', abusive.id).select('id'))).toEqual([{ id: abusive.id }]);
    expect(await sql(`select id from public.lesson_comments where id = any($1)`, [[abusive.id, replyToIt.id]])).toEqual([]);
  });

  it('Comentários: every comment of the school, filters, pages with the total, and the sidebar counts', async () => {
    const s = await makeSchool();
    const other = (await must(service.from('courses').insert({ school_id: s.id, title: 'Outro curso', slug: `outro-${tag()}`, status: 'PUBLISHED' }).select('id').single())) as { id: string };
    const otherModule = (await must(service.from('modules').insert({ course_id: other.id, title: 'M' }).select('id').single())) as { id: string };
    const otherLesson = (await must(service.from('lessons').insert({ module_id: otherModule.id, course_id: other.id, title: 'Aula do outro curso' }).select('id').single())) as { id: string };
    await must(service.from('enrollments').insert({ user_id: (await s.student('x')).id, course_id: other.id }).select('id'));
    const ana = await s.student('Ana');
    await must(service.from('enrollments').insert({ user_id: ana.id, course_id: other.id }).select('id'));
    const lesson = s.lessons[0]!;
    const q1 = await mustPost(ana, lesson, 'Pergunta sem resposta');
    const q2 = await mustPost(ana, lesson, 'Pergunta respondida pela equipe');
    const q3 = await mustPost(ana, lesson, 'Pergunta com resposta marcada');
    const q4 = await mustPost(ana, otherLesson.id, 'Pergunta do outro curso');
    const r2 = await mustPost(s.instructor, lesson, 'Resposta da equipe', q2.id);
    const bia = await s.student('Bia');
    const r3 = await mustPost(bia, lesson, 'Resposta de aluna', q3.id);
    const q5 = await mustPost(bia, lesson, 'Resposta de aluna não responde');
    await mustPost(ana, lesson, 'Resposta de aluna não conta', q5.id);
    await must(s.admin.client.rpc('mark_comment_answer', { p_comment_id: r3.id }));
    const staffPost = await mustPost(s.admin, lesson, 'Recado da equipe (não é pergunta)');
    await must(s.admin.client.rpc('hide_comment', { p_comment_id: q4.id, p_reason: null }));

    type Listed = { id: string; course_id: string; course_title: string; lesson_id: string; lesson_title: string; author_name: string; answered: boolean | null; parent_comment: string | null; reply_count: number; total_count: number };
    const list = async (args: Record<string, unknown>) => (await must(s.admin.client.rpc('admin_comments', { p_school_id: s.id, ...args }))) as Listed[];
    const all = await list({});
    expect(all).toHaveLength(9);
    expect(all[0]).toMatchObject({ id: staffPost.id, total_count: 9 });
    const byId = new Map(all.map((c) => [c.id, c]));
    expect(byId.get(q1.id)).toMatchObject({ course_id: s.course, lesson_id: lesson, lesson_title: 'Aula 1', author_name: 'Ana', answered: false, reply_count: 0 });
    expect(byId.get(q2.id)).toMatchObject({ answered: true, reply_count: 1 });
    expect(byId.get(r2.id)).toMatchObject({ answered: null, parent_comment: 'Pergunta respondida pela equipe' });
    expect(byId.get(q4.id)).toMatchObject({ course_title: 'Outro curso', lesson_title: 'Aula do outro curso' });

    expect((await list({ p_filter: 'unanswered' })).map((c) => c.id).sort()).toEqual([q1.id, q5.id].sort());
    expect((await list({ p_filter: 'hidden' })).map((c) => c.id)).toEqual([q4.id]);
    expect((await list({ p_course_id: other.id })).map((c) => c.id)).toEqual([q4.id]);
    expect((await list({ p_search: 'MARCADA' })).map((c) => c.id)).toEqual([q3.id]);
    const page2 = await list({ p_limit: 4, p_offset: 4 });
    expect(page2.map((c) => c.id)).toEqual(all.slice(4, 8).map((c) => c.id));
    expect(page2[0]!.total_count).toBe(9);
    expect((await s.admin.client.rpc('admin_comments', { p_school_id: s.id, p_filter: 'tudo' })).error).toMatchObject({ code: '22023' });
    expect(await must(s.instructor.client.rpc('admin_comment_counts', { p_school_id: s.id }).single())).toEqual({ unanswered: 2, pending: 0, hidden: 1 });
    // The caller's own school by default.
    expect(await must(s.admin.client.rpc('admin_comment_counts').single())).toEqual({ unanswered: 2, pending: 0, hidden: 1 });
  });

  it('notifications: the bell reads them with the announcements in one request, marks one, then all', async () => {
    const s = await makeSchool();
    const [ana, bia] = [await s.student('Ana'), await s.student('Bia')];
    const lesson = s.lessons[0]!;
    await must(service.from('announcements').insert([{ school_id: s.id, title: 'Bem-vindos', body: '<p>Oi</p>', priority: 1, is_active: true }, { school_id: s.id, title: 'Antigo', body: '<p>x</p>', priority: 0, is_active: false }]).select('id'));
    const q = await mustPost(ana, lesson, 'Pergunta');
    const r1 = await mustPost(bia, lesson, 'Resposta 1', q.id);
    await mustPost(bia, lesson, 'Resposta 2', q.id);
    await mustPost(s.instructor, lesson, 'Resposta da equipe', q.id);

    // One request: the school with its active announcements, the latest notifications and the unread count.
    const bell = async (c: SupabaseClient) =>
      (await must(
        c
          .from('schools')
          .select(
            'id, announcements(id, school_id, course_id, title, body, image_url, video_url, video_type, priority, created_at), ' +
              'notifications(id, kind, comment_id, lesson_id, course_id, lesson_title, actor_name, excerpt, created_at, read_at), ' +
              'unread:notifications(count)',
          )
          .eq('id', s.id)
          .eq('announcements.is_active', true)
          .is('unread.read_at', null)
          .order('priority', { referencedTable: 'announcements', ascending: false })
          .order('created_at', { referencedTable: 'announcements', ascending: false })
          .order('created_at', { referencedTable: 'notifications', ascending: false })
          .limit(50, { referencedTable: 'announcements' })
          .limit(30, { referencedTable: 'notifications' })
          .single(),
      )) as { announcements: { title: string }[]; notifications: { id: string; kind: string; actor_name: string; read_at: string | null }[]; unread: { count: number }[] };
    const first = await bell(ana.client);
    expect(first.announcements.map((a) => a.title)).toEqual(['Bem-vindos']);
    expect(first.notifications.map((n) => n.kind)).toEqual(['staff_answer', 'comment_reply', 'comment_reply']);
    expect(first.unread).toEqual([{ count: 3 }]);
    // Bia's bell has none of Ana's.
    expect((await bell(bia.client)).notifications).toEqual([]);

    const one = (await notificationsOf(ana.id)).find((n) => n.comment_id === r1.id)!;
    await must(ana.client.from('notifications').update({ read_at: new Date().toISOString() }).eq('id', one.id).select('id'));
    expect((await bell(ana.client)).unread).toEqual([{ count: 2 }]);
    expect(await must(ana.client.rpc('mark_all_notifications_read'))).toBe(2);
    expect((await bell(ana.client)).unread).toEqual([{ count: 0 }]);
    expect((await notificationsOf(ana.id)).every((n) => n.read_at !== null)).toBe(true);
  });
});

describe('what an attacker tries', () => {
  it('a student cannot edit or delete another’s comment, nor set its state', async () => {
    const s = await makeSchool();
    const [ana, eve] = [await s.student('Ana'), await s.student('Eve')];
    const lesson = s.lessons[0]!;
    const mine = await mustPost(ana, lesson, 'Comentário da Ana');
    const before = await row(mine.id);

    const edit = await eve.client.from('lesson_comments').update({ comment: 'Alterado pela Eve' }).eq('id', mine.id).select('id');
    expect(edit.error ?? edit.data).toEqual([]);
    const del = await eve.client.from('lesson_comments').delete().eq('id', mine.id).select('id');
    expect(del.error ?? del.data).toEqual([]);
    // State columns are not the client's, not even on one's own comment.
    for (const patch of [{ hidden_at: null, status: 'published' }, { marked_answer_at: new Date().toISOString() }, { author_role: 'SCHOOL_ADMIN' }, { parent_id: null }]) {
      expect((await ana.client.from('lesson_comments').update(patch as never).eq('id', mine.id).select('id')).error).not.toBeNull();
    }
    expect(await row(mine.id)).toEqual(before);

    // Nor on insert: a forged role, answer, hidden state, edit mark or date is overwritten.
    const forged = (await must(
      eve.client
        .from('lesson_comments')
        .insert({ user_id: eve.id, lesson_id: lesson, comment: 'Forjado', author_role: 'SCHOOL_ADMIN', marked_answer_at: '2020-01-01T00:00:00Z', edited_at: '2020-01-01T00:00:00Z', created_at: '2020-01-01T00:00:00Z' } as never)
        .select('id')
        .single(),
    )) as { id: string };
    const f = (await row(forged.id))!;
    expect([f.author_role, f.marked_answer_at, f.edited_at, f.hidden_at, f.status]).toEqual([null, null, null, null, 'published']);
    expect(Date.now() - new Date(f.created_at).getTime()).toBeLessThan(60_000);
    // Nor as another author.
    expect((await eve.client.from('lesson_comments').insert({ user_id: ana.id, lesson_id: lesson, comment: 'Em nome da Ana' }).select('id')).error).not.toBeNull();
    expect(await sql(`select 1 from public.lesson_comments where comment = 'Em nome da Ana'`)).toEqual([]);
  });

  it('a student cannot see hidden or pending comments of others, nor the hide reason', async () => {
    const s = await makeSchool({ comments_require_approval: true });
    const [ana, eve] = [await s.student('Ana'), await s.student('Eve')];
    const lesson = s.lessons[0]!;
    const pending = await mustPost(ana, lesson, 'PENDENTE-SECRETO');
    const published = await mustPost(s.admin, lesson, 'OCULTO-SECRETO');
    await must(s.admin.client.rpc('hide_comment', { p_comment_id: published.id, p_reason: 'MOTIVO-SECRETO' }));

    const seen: string[] = [];
    seen.push(JSON.stringify(await eve.client.from('lesson_comments').select('*')));
    seen.push(JSON.stringify(await eve.client.from('lesson_comments').select('*').in('id', [pending.id, published.id])));
    seen.push(JSON.stringify(await eve.client.from('lessons').select('id, lesson_comments(*, lesson_comment_moderation(*))').eq('id', lesson)));
    seen.push(JSON.stringify(await fetchLessonComments(eve.client, lesson)));
    seen.push(JSON.stringify(await eve.client.from('lesson_comment_moderation').select('*')));
    for (const fn of ['admin_comments', 'admin_comment_counts']) seen.push(JSON.stringify(await eve.client.rpc(fn, { p_school_id: s.id })));
    const text = seen.join('\n');
    expect(text).not.toMatch(/PENDENTE-SECRETO|OCULTO-SECRETO|MOTIVO-SECRETO/);
    // The author of a hidden comment does not see it either; its author does see their pending one.
    expect(await visible(s.admin.client, lesson)).toEqual([pending.id, published.id]);
    expect(await visible(ana.client, lesson)).toEqual([pending.id]);
    expect(JSON.stringify(await ana.client.from('lesson_comment_moderation').select('*'))).not.toContain('MOTIVO-SECRETO');
    // The reason is in the database all the same.
    expect(await sql(`select hidden_reason from public.lesson_comment_moderation where comment_id = $1`, [published.id])).toEqual([{ hidden_reason: 'MOTIVO-SECRETO' }]);
  });

  it('a student cannot read or mark another student’s notifications', async () => {
    const s = await makeSchool();
    const [ana, bia, eve] = [await s.student('Ana'), await s.student('Bia'), await s.student('Eve')];
    const q = await mustPost(ana, s.lessons[0]!, 'Pergunta da Ana');
    await mustPost(bia, s.lessons[0]!, 'Resposta da Bia', q.id);
    const [note] = await notificationsOf(ana.id);
    expect(note).toMatchObject({ kind: 'comment_reply', read_at: null });

    expect(await must(eve.client.from('notifications').select('*'))).toEqual([]);
    expect(await must(eve.client.from('notifications').select('*').eq('recipient_id', ana.id))).toEqual([]);
    const mark = await eve.client.from('notifications').update({ read_at: new Date().toISOString() }).eq('id', note!.id).select('id');
    expect(mark.error ?? mark.data).toEqual([]);
    expect(await must(eve.client.rpc('mark_all_notifications_read'))).toBe(0);
    // Nor write one, nor move one to themselves.
    expect((await eve.client.from('notifications').insert({ recipient_id: eve.id, school_id: s.id, kind: 'staff_answer', comment_id: q.id, lesson_id: s.lessons[0], course_id: s.course }).select('id')).error).not.toBeNull();
    expect((await ana.client.from('notifications').update({ recipient_id: eve.id } as never).eq('id', note!.id).select('id')).error).not.toBeNull();
    expect(await notificationsOf(ana.id)).toEqual([note]);
    expect(await notificationsOf(eve.id)).toEqual([]);
  });

  it('a student cannot exceed 5 comments a minute (replies count, older comments do not)', async () => {
    const s = await makeSchool();
    const [ana, eve] = [await s.student('Ana'), await s.student('Eve')];
    const q = await mustPost(ana, s.lessons[0]!, 'Pergunta');
    // Five from two minutes ago (service role) do not count.
    await must(service.from('lesson_comments').insert(Array.from({ length: 5 }, (_, i) => ({ user_id: eve.id, lesson_id: s.lessons[1], comment: `antigo ${i}`, created_at: new Date(Date.now() - 120_000).toISOString() }))).select('id'));
    for (let i = 0; i < 5; i++) await mustPost(eve, s.lessons[i % 2]!, `spam ${i}`, i === 4 ? q.id : undefined);
    const sixth = await post(eve, s.lessons[2]!, 'spam 6');
    expect(sixth.error).toMatchObject({ code: 'DC429', message: RATE_LIMIT });
    expect((await post(eve, s.lessons[0]!, 'spam 7', q.id)).error).toMatchObject({ code: 'DC429' });
    expect(await sql(`select count(*)::int as n from public.lesson_comments where user_id = $1 and created_at > now() - interval '1 minute'`, [eve.id])).toEqual([{ n: 5 }]);
    // Another student, and staff, are not held back by Eve's.
    await mustPost(ana, s.lessons[0]!, 'Ana continua');
    for (let i = 0; i < 6; i++) await mustPost(s.instructor, s.lessons[0]!, `equipe ${i}`);

    // Eight requests at once from a fresh student: five get through.
    const ze = await s.student('Zé');
    const burst = await Promise.all(Array.from({ length: 8 }, (_, i) => post(ze, s.lessons[3]!, `rajada ${i}`)));
    expect(burst.filter((r) => !r.error)).toHaveLength(5);
    expect(burst.filter((r) => r.error?.code === 'DC429')).toHaveLength(3);
    expect(await sql(`select count(*)::int as n from public.lesson_comments where user_id = $1`, [ze.id])).toEqual([{ n: 5 }]);
  });

  it('a student cannot mark an answer, hide, approve or list the school’s comments', async () => {
    const s = await makeSchool({ comments_require_approval: true });
    const [ana, eve] = [await s.student('Ana'), await s.student('Eve')];
    const lesson = s.lessons[0]!;
    const q = await mustPost(s.admin, lesson, 'Pergunta da equipe');
    const reply = await mustPost(s.instructor, lesson, 'Resposta', q.id);
    const pending = await mustPost(ana, lesson, 'Aguardando');
    const before = await sql(`select * from public.lesson_comments where id = any($1) order by id`, [[q.id, reply.id, pending.id]]);
    const calls: [string, Record<string, unknown>][] = [
      ['mark_comment_answer', { p_comment_id: reply.id }],
      ['hide_comment', { p_comment_id: q.id, p_reason: 'x' }],
      ['unhide_comment', { p_comment_id: q.id }],
      ['approve_comment', { p_comment_id: pending.id }],
      ['admin_comments', { p_school_id: s.id }],
      ['admin_comment_counts', { p_school_id: s.id }],
    ];
    for (const [fn, args] of calls) expect((await eve.client.rpc(fn, args)).error, fn).toMatchObject({ code: '42501' });
    // The author cannot approve their own comment through an update either.
    expect((await ana.client.from('lesson_comments').update({ status: 'published' } as never).eq('id', pending.id).select('id')).error).not.toBeNull();
    expect(await sql(`select * from public.lesson_comments where id = any($1) order by id`, [[q.id, reply.id, pending.id]])).toEqual(before);
    expect(await sql(`select 1 from public.lesson_comment_moderation where school_id = $1`, [s.id])).toEqual([]);
    // Nor change the school's settings; nor may staff make a student's ranking choice.
    await eve.client.from('school_discussion_settings').update({ comments_require_approval: false }).eq('school_id', s.id);
    expect((await eve.client.from('school_discussion_settings').upsert({ school_id: s.id, comments_require_approval: false, ranking_enabled: true }).select('school_id')).error).not.toBeNull();
    expect(await sql(`select comments_require_approval, ranking_enabled from public.school_discussion_settings where school_id = $1`, [s.id])).toEqual([{ comments_require_approval: true, ranking_enabled: false }]);
    expect((await s.admin.client.from('ranking_opt_outs').insert({ user_id: ana.id }).select('user_id')).error).not.toBeNull();
    expect(await sql(`select 1 from public.ranking_opt_outs where user_id = $1`, [ana.id])).toEqual([]);
  });

  it('staff of another school can do nothing to this school’s comments', async () => {
    const s = await makeSchool({ comments_require_approval: true });
    const ana = await s.student('Ana');
    const lesson = s.lessons[0]!;
    const q = await mustPost(s.instructor, lesson, 'Pergunta');
    const reply = await mustPost(s.instructor, lesson, 'Resposta', q.id);
    const pending = await mustPost(ana, lesson, 'Aguardando');
    const rival = await backend.signIn(EMAIL.adminRival);
    const before = await sql(`select * from public.lesson_comments where course_id = $1 order by id`, [s.course]);

    expect(await must(rival.from('lesson_comments').select('id').eq('lesson_id', lesson))).toEqual([]);
    const calls: [string, Record<string, unknown>][] = [
      ['mark_comment_answer', { p_comment_id: reply.id }],
      ['hide_comment', { p_comment_id: q.id, p_reason: 'x' }],
      ['unhide_comment', { p_comment_id: q.id }],
      ['approve_comment', { p_comment_id: pending.id }],
      ['admin_comments', { p_school_id: s.id }],
      ['admin_comment_counts', { p_school_id: s.id }],
      ['school_ranking', { p_school_id: s.id }],
    ];
    for (const [fn, args] of calls) expect((await rival.rpc(fn, args)).error, fn).toMatchObject({ code: '42501' });
    expect(await must(rival.from('school_discussion_settings').select('*').eq('school_id', s.id))).toEqual([]);
    await rival.from('school_discussion_settings').update({ comments_require_approval: false }).eq('school_id', s.id);
    expect(await sql(`select comments_require_approval from public.school_discussion_settings where school_id = $1`, [s.id])).toEqual([{ comments_require_approval: true }]);
    const del = await rival.from('lesson_comments').delete().eq('course_id', s.course).select('id');
    expect(del.error ?? del.data).toEqual([]);
    const upd = await rival.from('lesson_comments').update({ comment: 'Rival' }).eq('course_id', s.course).select('id');
    expect(upd.error ?? upd.data).toEqual([]);
    expect((await rival.from('lesson_comments').insert({ user_id: USER.adminRival, lesson_id: lesson, comment: 'Invasão', parent_id: q.id }).select('id')).error).not.toBeNull();
    // The rival school's own list does not include this school's comments.
    const own = (await must(rival.rpc('admin_comments', {}))) as { course_id: string }[];
    expect(own.some((c) => c.course_id === s.course)).toBe(false);
    expect(await sql(`select * from public.lesson_comments where course_id = $1 order by id`, [s.course])).toEqual(before);
  });

  it('anonymous gets nothing', async () => {
    const anon = backend.anon();
    for (const t of ['lesson_comments', 'notifications', 'lesson_comment_moderation']) {
      const r = await anon.from(t).select('*');
      expect(r.data ?? [], t).toEqual([]);
    }
    for (const fn of ['admin_comments', 'admin_comment_counts', 'school_ranking', 'mark_all_notifications_read', 'approve_comment', 'hide_comment', 'unhide_comment', 'mark_comment_answer']) {
      expect((await anon.rpc(fn, fn.endsWith('_comment') || fn === 'mark_comment_answer' ? { p_comment_id: COMMENT.alunoPreview } : {})).error, fn).not.toBeNull();
    }
    expect((await anon.from('lesson_comments').insert({ user_id: USER.aluno, lesson_id: LESSON.excelPreview, comment: 'anônimo' }).select('id')).error).not.toBeNull();
    expect(await sql(`select 1 from public.lesson_comments where comment = 'anônimo'`)).toEqual([]);
  });
});

describe('the ranking of the month', () => {
  const monthOf = (iso: string) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit' }).format(new Date(iso));

  /** The ranking computed here from the rows themselves (service role), by the rules of docs/discussions.md. */
  async function expected(schoolId: string) {
    const thisMonth = monthOf(new Date().toISOString());
    const courses = ((await must(service.from('courses').select('id').eq('school_id', schoolId))) as { id: string }[]).map((c) => c.id);
    const progress = (await must(service.from('progress').select('user_id, completed_at').in('course_id', courses).not('completed_at', 'is', null))) as { user_id: string; completed_at: string }[];
    const attempts = (await must(service.from('quiz_attempts').select('user_id, quiz_id, submitted_at').in('course_id', courses).eq('passed', true))) as { user_id: string; quiz_id: string; submitted_at: string }[];
    const answers = (await must(service.from('lesson_comments').select('user_id, marked_answer_at, hidden_at, status').in('course_id', courses).not('marked_answer_at', 'is', null))) as { user_id: string; marked_answer_at: string; hidden_at: string | null; status: string }[];
    const profiles = (await must(service.from('profiles').select('id, name, is_active').eq('school_id', schoolId))) as { id: string; name: string; is_active: boolean }[];
    const optedOut = new Set(((await must(service.from('ranking_opt_outs').select('user_id'))) as { user_id: string }[]).map((r) => r.user_id));
    const roles = new Set(((await must(service.from('user_roles').select('user_id'))) as { user_id: string }[]).map((r) => r.user_id));
    const score = new Map<string, { lessons: number; quizzes: number; answers: number }>();
    const add = (u: string, k: 'lessons' | 'quizzes' | 'answers') => {
      const s = score.get(u) ?? { lessons: 0, quizzes: 0, answers: 0 };
      s[k]++;
      score.set(u, s);
    };
    for (const p of progress) if (monthOf(p.completed_at) === thisMonth) add(p.user_id, 'lessons');
    const firstPass = new Map<string, string>();
    for (const a of attempts) {
      const key = `${a.user_id}/${a.quiz_id}`;
      if (!firstPass.has(key) || a.submitted_at < firstPass.get(key)!) firstPass.set(key, a.submitted_at);
    }
    for (const [key, at] of firstPass) if (monthOf(at) === thisMonth) add(key.split('/')[0]!, 'quizzes');
    for (const a of answers) if (!a.hidden_at && a.status === 'published' && monthOf(a.marked_answer_at) === thisMonth) add(a.user_id, 'answers');
    const ranked = profiles
      .filter((p) => p.is_active && !optedOut.has(p.id) && !roles.has(p.id) && score.has(p.id))
      .map((p) => {
        const s = score.get(p.id)!;
        return { user_id: p.id, name: p.name, ...s, points: 10 * s.lessons + 30 * s.quizzes + 20 * s.answers };
      })
      .filter((r) => r.points > 0);
    // Ties by the full name; shown as first name and initial (issue 46: tests/integration/product/ranking-privacy.test.ts).
    return ranked
      .map((r) => ({ ...r, position: 1 + ranked.filter((o) => o.points > r.points).length }))
      .sort((a, b) => a.position - b.position || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) || (a.user_id < b.user_id ? -1 : 1))
      .map((r) => ({ ...r, name: shortName(r.name) }));
  }
  const shortName = (name: string) => {
    const words = name.trim().split(/\s+/);
    return words.length === 1 ? words[0]! : `${words[0]} ${words.at(-1)![0]!.toUpperCase()}.`;
  };

  type Ranking = {
    enabled: boolean;
    opted_out: boolean;
    top: { position: number; user_id: string; name: string; points: number; lessons: number; quizzes: number; answers: number }[];
    me: null | { position: number | null; points: number; lessons: number; quizzes: number; answers: number };
  };
  const ranking = async (c: SupabaseClient, schoolId?: string) => (await must(c.rpc('school_ranking', schoolId ? { p_school_id: schoolId } : {}))) as Ranking;
  const complete = async (a: Account, lessons: string[]) => {
    for (const lesson_id of lessons) {
      await must(a.client.from('progress').upsert({ user_id: a.id, lesson_id, completed_at: new Date().toISOString() }, { onConflict: 'user_id,lesson_id' }).select('id'));
    }
  };

  /** A published one-question quiz on its own lesson, passed by answering `right`. */
  async function quiz(s: Awaited<ReturnType<typeof makeSchool>>) {
    const lesson = (await must(service.from('lessons').insert({ module_id: s.module, course_id: s.course, title: 'Prova', order_index: 9 }).select('id').single())) as { id: string };
    const q = (await must(service.from('quizzes').insert({ lesson_id: lesson.id, pass_mark: 100 }).select('id').single())) as { id: string };
    const t = tag();
    await must(service.from('quiz_questions').insert({ quiz_id: q.id, position: 0, kind: 'single', scoring: 'all_or_nothing', statement: `Quanto é 2+2? ${t}`, options: [{ id: `certa-${t}`, text: '4', correct: true }, { id: `errada-${t}`, text: '5', correct: false }] }).select('id'));
    await must(s.admin.client.rpc('publish_quiz', { p_quiz_id: q.id }));
    return {
      id: q.id,
      async take(a: Account, right: boolean) {
        const started = (await must(a.client.rpc('start_quiz_attempt', { p_quiz_id: q.id }))) as { open_attempt: { id: string; questions: { id: string }[] } };
        const qid = started.open_attempt.questions[0]!.id;
        const graded = (await must(a.client.rpc('submit_quiz_attempt', { p_attempt_id: started.open_attempt.id, p_answers: { [qid]: [right ? `certa-${t}` : `errada-${t}`] } }))) as { attempts: { passed: boolean }[] };
        return graded;
      },
    };
  }

  it('off by default: no one is ranked until staff turn it on', async () => {
    const s = await makeSchool();
    const ana = await s.student('Ana');
    await complete(ana, s.lessons);
    expect(await ranking(ana.client)).toMatchObject({ enabled: false, top: [], me: null });
    // The school's settings: members read them, staff write them.
    expect(await must(ana.client.from('school_discussion_settings').select('*').eq('school_id', s.id))).toEqual([]);
    await must(s.admin.client.from('school_discussion_settings').upsert({ school_id: s.id, ranking_enabled: true }, { onConflict: 'school_id' }).select('school_id'));
    expect(await must(ana.client.from('school_discussion_settings').select('comments_require_approval, ranking_enabled').eq('school_id', s.id))).toEqual([
      { comments_require_approval: false, ranking_enabled: true },
    ]);
    expect(await ranking(ana.client)).toMatchObject({ enabled: true, me: { position: 1, points: 40, lessons: 4 } });
  });

  it('equals the numbers computed from the rows, follows every change, and never shows an opted-out student', async () => {
    const s = await makeSchool({ ranking_enabled: true });
    const [ana, bia, caio, davi, eva, fabi] = [await s.student('Ana'), await s.student('Bia'), await s.student('Caio'), await s.student('Davi Oculto'), await s.student('Eva'), await s.student('Fabi')];
    const exam = await quiz(s);
    // Ana: 3 lessons and the quiz (failed once, then passed; its lesson completes too) = 70. Bia: 1 lesson
    // and a marked answer = 30.
    // Caio: 1 lesson this month, 1 last month (written by the service role) = 10. Davi opted out with 4
    // lessons. Eva: 1 lesson = 10 (ties with Caio). Fabi: nothing. Staff complete lessons too.
    await complete(ana, s.lessons.slice(0, 3));
    expect((await exam.take(ana, false)).attempts.map((a) => a.passed)).toEqual([false]);
    await exam.take(ana, true);
    await complete(bia, [s.lessons[0]!]);
    const q = await mustPost(caio, s.lessons[0]!, 'Pergunta do Caio');
    const answer = await mustPost(bia, s.lessons[0]!, 'Resposta da Bia', q.id);
    await must(s.admin.client.rpc('mark_comment_answer', { p_comment_id: answer.id }));
    await complete(caio, [s.lessons[1]!]);
    const lastMonth = new Date(Date.now() - 40 * 24 * 3600_000).toISOString();
    await must(service.from('progress').insert({ user_id: caio.id, lesson_id: s.lessons[2], completed_at: lastMonth }).select('id'));
    await must(davi.client.from('ranking_opt_outs').insert({ user_id: davi.id }).select('user_id'));
    await complete(davi, s.lessons);
    await complete(eva, [s.lessons[3]!]);
    await complete(s.instructor, s.lessons);

    const check = async () => {
      const want = await expected(s.id);
      const got = await ranking(ana.client);
      expect(got.top).toEqual(want.slice(0, 10).map(({ user_id, name, position, points, lessons, quizzes, answers }) => ({ user_id, name, position, points, lessons, quizzes, answers, avatar_url: null })));
      return { want, got };
    };
    const { want } = await check();
    expect(want.map((r) => [r.name, r.points, r.position])).toEqual([['Ana', 70, 1], ['Bia', 30, 2], ['Caio', 10, 3], ['Eva', 10, 3]]);

    // Each one's own position; the opted-out student and the one without points have none.
    expect((await ranking(bia.client)).me).toEqual({ position: 2, points: 30, lessons: 1, quizzes: 0, answers: 1, notice: true });
    expect((await ranking(eva.client)).me).toEqual({ position: 3, points: 10, lessons: 1, quizzes: 0, answers: 0, notice: true });
    expect(await ranking(davi.client)).toMatchObject({ opted_out: true, me: null });
    expect((await ranking(fabi.client)).me).toEqual({ position: null, points: 0, lessons: 0, quizzes: 0, answers: 0, notice: false });
    expect((await ranking(s.admin.client)).me).toBeNull();
    expect(JSON.stringify(await ranking(s.admin.client, s.id))).not.toContain(davi.id);

    // Changes: the answer unmarked, a completion deleted, the pass moved to last month, Davi back in.
    await must(s.admin.client.rpc('mark_comment_answer', { p_comment_id: answer.id, p_marked: false }));
    await must(service.from('progress').delete().eq('user_id', ana.id).eq('lesson_id', s.lessons[0]!).select('id'));
    await must(service.from('quiz_attempts').update({ submitted_at: lastMonth }).eq('user_id', ana.id).eq('passed', true).select('id'));
    await must(davi.client.from('ranking_opt_outs').delete().eq('user_id', davi.id).select('user_id'));
    const after = (await check()).want;
    // Ana keeps the quiz lesson's completion (this month) but not the quiz: 3 lessons.
    expect(after.map((r) => [r.name, r.points, r.position])).toEqual([['Davi O.', 40, 1], ['Ana', 30, 2], ['Bia', 10, 3], ['Caio', 10, 3], ['Eva', 10, 3]]);
    // Marked again, then the answer hidden: it counts, then it does not.
    await must(s.admin.client.rpc('mark_comment_answer', { p_comment_id: answer.id }));
    expect((await ranking(bia.client)).me).toMatchObject({ points: 30, answers: 1 });
    await must(s.admin.client.rpc('hide_comment', { p_comment_id: answer.id }));
    expect((await ranking(bia.client)).me).toMatchObject({ points: 10, answers: 0 });
    await check();

    // Another school's student may not read it.
    const rivalStudent = await backend.signIn(EMAIL.alunoRival);
    expect((await rivalStudent.rpc('school_ranking', { p_school_id: s.id })).error).toMatchObject({ code: '42501' });
  });

  it('shows the top 10 only, with ties sharing a position', async () => {
    const s = await makeSchool({ ranking_enabled: true });
    const students: Account[] = [];
    for (let i = 0; i < 12; i++) students.push(await s.student(`Aluno ${String(i).padStart(2, '0')}`));
    // Aluno 00..11 complete 1, 1, 2, 2, ... lessons (at most 4).
    for (const [i, a] of students.entries()) await complete(a, s.lessons.slice(0, Math.min(4, 1 + Math.floor(i / 2))));
    const got = await ranking(students[0]!.client);
    const want = await expected(s.id);
    expect(got.top).toHaveLength(10);
    expect(got.top.map((r) => [r.name, r.position])).toEqual(want.slice(0, 10).map((r) => [r.name, r.position]));
    expect(got.top[0]).toMatchObject({ position: 1, points: 40 });
    expect(got.me).toMatchObject({ position: 11, points: 10 });
  });
});
