-- Issue 37, hole 9: bidirectional controls let what a student writes reorder what others read. A
-- right-to-left override (U+202E) before a link made it show "https://escola-demo.com.br…" and open
-- another site; the same character in a name made "Caio oãçartsinimdA" read "Caio Administração".
-- The controls are the embeddings and overrides U+202A–U+202E, the isolates U+2066–U+2069 and the
-- invisible marks U+200E, U+200F and U+061C; nobody needs them to write a name or a comment (Arabic
-- and Hebrew letters carry their own direction), so they are removed when the text is written, and
-- every reader is safe: the SPA, the e-mails, the notifications, certificates and CSV exports. (The
-- SPA also strips them and isolates names and links on render: src/lib/user-text.ts.)
--
-- What is stripped: the free text a student writes and someone else reads — profiles.name, .phone and
-- .address (staff read them) and lesson_comments.comment. lesson_comments.author_name is copied from
-- the profile (lesson_comments_prepare), notifications' actor_name and excerpt and certificates'
-- student_name are copies made when they were written; rows written before are fixed below.
-- Not stripped: what staff write for their own school (course and lesson titles, announcements, hide
-- reasons): the school's own text, authored in the admin area, where links are chosen by the author.
set local lock_timeout = '5s';

create function private.without_bidi_controls(p_text text) returns text
language sql immutable parallel safe set search_path = '' as $$
  select translate(p_text, U&'\061C\200E\200F\202A\202B\202C\202D\202E\2066\2067\2068\2069', '')
$$;

-- Named to fire before profiles_normalize (triggers fire in name order), which then trims what is left.
create function private.profiles_without_bidi_controls() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  new.name := private.without_bidi_controls(new.name);
  new.phone := private.without_bidi_controls(new.phone);
  new.address := private.without_bidi_controls(new.address);
  return new;
end $$;
create trigger profiles_bidi_controls before insert or update of name, phone, address on public.profiles
  for each row execute function private.profiles_without_bidi_controls();

-- Before lesson_comments_prepare (trims) and lesson_comments_validate (length, edit window), so a
-- comment of controls only is refused as empty (lesson_comments_comment_length).
create function private.lesson_comments_without_bidi_controls() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  new.comment := private.without_bidi_controls(new.comment);
  return new;
end $$;
create trigger lesson_comments_bidi_controls before insert or update of comment on public.lesson_comments
  for each row execute function private.lesson_comments_without_bidi_controls();

revoke all on function private.without_bidi_controls(text), private.profiles_without_bidi_controls(),
  private.lesson_comments_without_bidi_controls() from public, anon, authenticated;

-- ── Rows written before ──────────────────────────────────────────────────────────────────────
-- Profiles first: profiles_sync_comment_authors carries the fixed names into lesson_comments.author_name.
update public.profiles
   set name = private.without_bidi_controls(name),
       phone = private.without_bidi_controls(phone),
       address = private.without_bidi_controls(address)
 where name <> private.without_bidi_controls(name)
    or phone <> private.without_bidi_controls(phone)
    or address <> private.without_bidi_controls(address);

-- A comment made of controls only is left as it is (it cannot become empty: the length check), and
-- the SPA shows it without them. lesson_comments_validate marks changed text as edited: the author
-- did not edit it, so edited_at is put back.
create temporary table bidi_fixed_comments as
  select id, edited_at from public.lesson_comments
   where comment <> private.without_bidi_controls(comment)
     and btrim(private.without_bidi_controls(comment)) <> '';
update public.lesson_comments c set comment = private.without_bidi_controls(c.comment)
  from bidi_fixed_comments f where f.id = c.id;
update public.lesson_comments c set edited_at = f.edited_at
  from bidi_fixed_comments f where f.id = c.id;
drop table bidi_fixed_comments;

update public.notifications
   set actor_name = private.without_bidi_controls(actor_name),
       excerpt = private.without_bidi_controls(excerpt)
 where actor_name <> private.without_bidi_controls(actor_name)
    or excerpt <> private.without_bidi_controls(excerpt);

-- An issued certificate never changes (certificates_keep_snapshot), except here: the name it shows
-- (on the public verification page too) loses only the invisible controls.
alter table public.certificates disable trigger certificates_keep_snapshot;
update public.certificates set student_name = private.without_bidi_controls(student_name)
 where student_name <> private.without_bidi_controls(student_name)
   and btrim(private.without_bidi_controls(student_name)) <> '';
alter table public.certificates enable trigger certificates_keep_snapshot;
