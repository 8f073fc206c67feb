// Issue 37's retest: a student's avatar_url could be any https address. It is copied to each of their
// comments (author_avatar_url) and loaded by every reader's browser: a tracking pixel that learns the
// address, time and browser of everyone who opens the lesson. Through the API the photo is now null or an
// object of the avatars bucket in the account's own folder, as the SPA's upload writes it
// (supabase/migrations/20261128001010_avatar_url_own_bucket.sql). Each attack is checked in the database.
import { describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { COMMENT, USER } from '../rls/seed.ts';

const REFUSAL = { code: '22023', message: 'A foto do perfil precisa ser uma imagem enviada para a sua conta.' };

const backend = useBackend();
const aluno = backend.signedIn('aluno');
const admin = backend.signedIn('adminDemo');

const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) => (await backend.server.ctx.engine.query<T>(text, params)).rows;
/** The photo on the profile and on the student's comment (what other readers' browsers load). */
const stored = async () =>
  (await sql<{ avatar_url: string | null; comment_avatar_url: string | null }>(
    `select p.avatar_url, c.author_avatar_url as comment_avatar_url
       from public.profiles p join public.lesson_comments c on c.user_id = p.id
      where p.id = $1 and c.id = $2`,
    [USER.aluno, COMMENT.alunoPreview],
  ))[0];
const publicAvatar = (path: string) => `${backend.url}/storage/v1/object/public/avatars/${path}`;

describe("a profile's photo is an image of the avatars bucket in the account's own folder", () => {
  it('refuses a tracker on another host, another account\'s photo, a path that climbs out of the folder and other schemes; nothing is stored or copied', async () => {
    const before = await stored();
    const attempts = [
      'https://tracker.example/p.gif?who=aluno',
      publicAvatar(`${USER.aluna}/avatar.png`),
      publicAvatar(`${USER.aluno}/../${USER.aluna}/avatar.png`),
      publicAvatar(`${USER.aluno}/%2e%2e/${USER.aluna}/avatar.png`),
      publicAvatar(`${USER.aluno}/`),
      `${backend.url}/storage/v1/object/public/course-thumbnails/${USER.aluno}/avatar.png`,
      `https://tracker.example@localhost/storage/v1/object/public/avatars/${USER.aluno}/avatar.png`,
      `javascript:alert(1)//storage/v1/object/public/avatars/${USER.aluno}/avatar.png`,
      'data:image/svg+xml,<svg/onload=alert(1)>',
    ];
    for (const url of attempts) {
      const r = await aluno.from('profiles').update({ avatar_url: url }).eq('id', USER.aluno).select('avatar_url');
      expect(r.error, url).toMatchObject(REFUSAL);
    }
    // Staff of the school may edit a student's profile, but not put a tracker in it either.
    const byStaff = await admin.from('profiles').update({ avatar_url: 'https://tracker.example/p.gif' }).eq('id', USER.aluno).select('avatar_url');
    expect(byStaff.error).toMatchObject(REFUSAL);
    expect(await stored()).toEqual(before);
  });

  it('takes the photo the SPA uploads (its public URL with ?v=), copies it to the comments, and takes null to remove it (control)', async () => {
    const bucket = aluno.storage.from('avatars');
    const png = new Blob([Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'))], { type: 'image/png' });
    expect((await bucket.upload(`${USER.aluno}/avatar.png`, png, { upsert: true, contentType: 'image/png' })).error).toBeNull();
    // What src/features/profile/api/queries.ts uploadAvatar saves.
    const url = `${bucket.getPublicUrl(`${USER.aluno}/avatar.png`).data.publicUrl}?v=${Date.now()}`;
    const r = await aluno.from('profiles').update({ avatar_url: url }).eq('id', USER.aluno).select('avatar_url').single();
    expect(r.error).toBeNull();
    expect(await stored()).toEqual({ avatar_url: url, comment_avatar_url: url });
    expect((await fetch(url)).status).toBe(200);

    const removed = await aluno.from('profiles').update({ avatar_url: null }).eq('id', USER.aluno).select('avatar_url').single();
    expect(removed.error).toBeNull();
    expect(await stored()).toEqual({ avatar_url: null, comment_avatar_url: null });
    // Other fields of the profile save as before, with the photo left as it is.
    expect((await aluno.from('profiles').update({ name: 'Carlos Aluno', avatar_url: null }).eq('id', USER.aluno).select('name').single()).error).toBeNull();
  });
});
