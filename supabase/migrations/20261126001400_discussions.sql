-- Issue 26: lesson discussions a school can run. docs/discussions.md has the design and the contract
-- the SPA builds on. In short:
-- - lesson_comments gains replies one level deep (parent_id), the author's staff role (author_role,
--   computed), approval (status pending/published, per the school's comments_require_approval),
--   edit within 15 minutes (edited_at), staff hiding (hidden_at; the reason and who hid it live in
--   lesson_comment_moderation, which only staff read) and the answer staff mark (marked_answer_at,
--   one per question). Existing comments stay as they were: top-level, published.
-- - Rules on plain writes are triggers (students write the table through RLS as before); staff
--   actions that no column grant can express are security definer RPCs with an explicit caller check.
-- - notifications: written by the comment triggers in the same transaction as the reply, the
--   answer, the approval or the new pending comment; each account reads and marks only its own.
-- - school_ranking(): the month's top 10 of a school and the caller's position, read from monthly
--   counts (private.ranking_months) that triggers keep exact.
--
-- Why lesson_comments_select changes (policy of 20261123000800): a student no longer reads hidden
-- comments, nor other students' pending ones, nor replies under a hidden or pending question.
-- lesson_comments_update stays; a trigger adds the 15 minutes.
set local lock_timeout = '5s';

-- ── School settings and the student's choice ─────────────────────────────────────────────────
-- Tables of their own (not columns of schools and profiles, whose whole rows the SPA's test
-- fixtures spell out). No settings row: the defaults (both off).
create table public.school_discussion_settings (
  school_id uuid primary key references public.schools (id) on delete cascade,
  -- Students' comments wait for staff approval before other students read them.
  comments_require_approval boolean not null default false,
  -- The home's "Ranking" card.
  ranking_enabled boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.school_discussion_settings enable row level security;
revoke all on public.school_discussion_settings from public, anon, authenticated;
grant select, insert, update on public.school_discussion_settings to authenticated;
grant all on public.school_discussion_settings to service_role;
-- Every member reads their school's (the comment box may say that comments are reviewed); staff write.
create policy school_discussion_settings_select on public.school_discussion_settings for select to authenticated
  using (school_id = (select private.my_school_id()) or school_id in (select private.staff_school_ids())
         or (select private.is_super_admin()));
create policy school_discussion_settings_insert on public.school_discussion_settings for insert to authenticated
  with check ((select private.is_school_staff(school_id)));
create policy school_discussion_settings_update on public.school_discussion_settings for update to authenticated
  using ((select private.is_school_staff(school_id))) with check ((select private.is_school_staff(school_id)));
create policy school_discussion_settings_password_change on public.school_discussion_settings as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));
create trigger school_discussion_settings_touch before update on public.school_discussion_settings
  for each row execute function private.touch_timestamps();

-- LGPD: a student with a row here never appears in the ranking, and gets no position. Only the
-- student adds or removes it.
create table public.ranking_opt_outs (
  user_id uuid primary key references public.profiles (id) on delete cascade,
  created_at timestamptz not null default now()
);
alter table public.ranking_opt_outs enable row level security;
revoke all on public.ranking_opt_outs from public, anon, authenticated;
grant select, insert, delete on public.ranking_opt_outs to authenticated;
grant all on public.ranking_opt_outs to service_role;
create policy ranking_opt_outs_own on public.ranking_opt_outs for all to authenticated
  using (user_id = (select auth.uid()) and (select private.is_active()))
  with check (user_id = (select auth.uid()) and (select private.is_active()));
create policy ranking_opt_outs_password_change on public.ranking_opt_outs as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));

-- ── lesson_comments: threads, roles, approval, edits, hiding, the answer ─────────────────────
alter table public.lesson_comments
  -- null: a question (top-level comment); else the question it answers. One level only (trigger).
  add column parent_id uuid references public.lesson_comments (id) on delete cascade,
  -- The author's staff role at the course's school when the comment was written; null: a student.
  -- Computed by the trigger, never taken from the client.
  add column author_role text
    constraint lesson_comments_author_role_check check (author_role in ('SUPER_ADMIN', 'SCHOOL_ADMIN', 'INSTRUCTOR', 'STAFF')),
  -- pending: waits for staff approval (the school's comments_require_approval); only its author and
  -- staff read it.
  add column status text not null default 'published'
    constraint lesson_comments_status_check check (status in ('pending', 'published')),
  -- Set when the author changes the text (allowed in the first 15 minutes).
  add column edited_at timestamptz,
  -- Set by hide_comment: nobody but staff reads the comment (nor replies under it).
  add column hidden_at timestamptz,
  -- Set on a reply by mark_comment_answer: the answer to its question (one per question).
  add column marked_answer_at timestamptz,
  add constraint lesson_comments_answer_is_reply check (marked_answer_at is null or parent_id is not null);

create index lesson_comments_parent_id_created_at_idx on public.lesson_comments (parent_id, created_at);
create unique index lesson_comments_one_answer_key on public.lesson_comments (parent_id) where marked_answer_at is not null;
-- The rate limit counts the author's last minute; the ranking recounts one author's months.
create index lesson_comments_user_id_created_at_idx on public.lesson_comments (user_id, created_at desc);
drop index public.lesson_comments_user_id_idx;
create index lesson_comments_course_id_created_at_idx on public.lesson_comments (course_id, created_at desc);
drop index public.lesson_comments_course_id_idx;
-- Comments other students must not read (the withheld set below), and the staff filters.
create index lesson_comments_withheld_idx on public.lesson_comments (course_id)
  where hidden_at is not null or status = 'pending';

-- Existing comments: top-level and published (the defaults); staff authors get their role.
update public.lesson_comments lc
   set author_role = (
     select case
              when bool_or(r.role = 'SCHOOL_ADMIN' and r.school_id = c.school_id) then 'SCHOOL_ADMIN'
              when bool_or(r.role = 'INSTRUCTOR' and r.school_id = c.school_id) then 'INSTRUCTOR'
              when bool_or(r.role = 'STAFF' and r.school_id = c.school_id) then 'STAFF'
              when bool_or(r.role = 'SUPER_ADMIN') then 'SUPER_ADMIN'
            end
       from public.user_roles r join public.courses c on c.id = lc.course_id
      where r.user_id = lc.user_id)
 where exists (select 1 from public.user_roles r where r.user_id = lc.user_id);

-- The API keeps its insert grant on every column (as before): for API callers the trigger below
-- overwrites created_at and every state column (author_role, status, edited_at, hidden_at,
-- marked_answer_at) whatever the client sent. Updates stay limited to the text (column grant).

-- The role a user holds at a school, as a comment shows it (null: a student).
create function private.staff_role_at(p_user_id uuid, p_school_id uuid) returns text
language sql stable security definer set search_path = '' as $$
  select case
           when bool_or(r.role = 'SCHOOL_ADMIN' and r.school_id = p_school_id) then 'SCHOOL_ADMIN'
           when bool_or(r.role = 'INSTRUCTOR' and r.school_id = p_school_id) then 'INSTRUCTOR'
           when bool_or(r.role = 'STAFF' and r.school_id = p_school_id) then 'STAFF'
           when bool_or(r.role = 'SUPER_ADMIN') then 'SUPER_ADMIN'
         end
    from public.user_roles r where r.user_id = p_user_id
$$;

-- The rules of a comment. Runs after lesson_comments_prepare (trimmed text, author name) and
-- lesson_comments_set_course (course_id from the lesson): triggers fire in name order.
-- API callers (role authenticated) get the student rules; the service role, the seed and
-- migrations may write any state (e.g. backdated comments), but threads stay one level deep.
create function private.lesson_comments_validate() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_api boolean := coalesce(auth.role(), '') = 'authenticated';
  v_parent public.lesson_comments;
  v_school uuid;
  v_approval boolean;
  v_recent integer;
begin
  if tg_op = 'INSERT' then
    if new.parent_id is not null then
      select * into v_parent from public.lesson_comments c where c.id = new.parent_id;
      if not found then
        raise exception 'Este comentário não existe mais.' using errcode = 'DC400';
      end if;
      if v_parent.parent_id is not null then
        raise exception 'Só é possível responder a um comentário principal, não a uma resposta.' using errcode = 'DC400';
      end if;
      if new.lesson_id is null then
        new.lesson_id := v_parent.lesson_id;
        new.course_id := v_parent.course_id;
      elsif new.lesson_id <> v_parent.lesson_id then
        raise exception 'A resposta deve ficar na mesma aula do comentário.' using errcode = 'DC400';
      end if;
      if v_api and (v_parent.hidden_at is not null or v_parent.status <> 'published') then
        raise exception 'Este comentário não aceita respostas no momento.' using errcode = 'DC400';
      end if;
    end if;
    select c.school_id, s.comments_require_approval into v_school, v_approval
      from public.courses c left join public.school_discussion_settings s on s.school_id = c.school_id
     where c.id = new.course_id;
    new.author_role := private.staff_role_at(new.user_id, v_school);
    if v_api then
      new.created_at := now();
      new.edited_at := null;
      new.hidden_at := null;
      new.marked_answer_at := null;
      new.status := case when coalesce(v_approval, false) and new.author_role is null then 'pending' else 'published' end;
      if new.author_role is null then
        -- At most 5 comments a minute per student; concurrent inserts of one author queue here.
        perform pg_advisory_xact_lock(hashtextextended('lesson_comments:' || new.user_id::text, 0));
        select count(*) into v_recent from public.lesson_comments c
         where c.user_id = new.user_id and c.created_at > now() - interval '1 minute';
        if v_recent >= 5 then
          raise exception 'Você comentou muitas vezes em pouco tempo. Aguarde um minuto.' using errcode = 'DC429';
        end if;
      end if;
    end if;
    return new;
  end if;

  -- UPDATE. The API may only change the text (column grant); the author, within 15 minutes.
  if new.parent_id is distinct from old.parent_id then
    raise exception 'Uma resposta não muda de comentário.' using errcode = 'DC400';
  end if;
  if new.comment is distinct from old.comment then
    if v_api then
      if old.hidden_at is not null then
        raise exception 'Este comentário foi ocultado pela equipe.' using errcode = '42501';
      end if;
      if now() > old.created_at + interval '15 minutes' then
        raise exception 'Só é possível editar um comentário nos primeiros 15 minutos.' using errcode = 'DC410';
      end if;
      -- With approval on, an edited student comment waits for approval again.
      if old.author_role is null and old.status = 'published' and coalesce((
           select s.comments_require_approval from public.courses c join public.school_discussion_settings s on s.school_id = c.school_id
            where c.id = new.course_id), false) then
        new.status := 'pending';
      end if;
    end if;
    new.edited_at := now();
  end if;
  return new;
end $$;
revoke all on function private.staff_role_at(uuid, uuid), private.lesson_comments_validate() from public, anon, authenticated;
create trigger lesson_comments_validate before insert or update on public.lesson_comments
  for each row execute function private.lesson_comments_validate();

-- ── Moderation: why and by whom a comment was hidden (staff only) ───────────────────────────
create table public.lesson_comment_moderation (
  comment_id uuid primary key references public.lesson_comments (id) on delete cascade,
  school_id uuid not null references public.schools (id) on delete cascade,
  hidden_reason text constraint lesson_comment_moderation_reason_length check (length(hidden_reason) between 1 and 500),
  hidden_by uuid references public.profiles (id) on delete set null,
  hidden_at timestamptz not null default now()
);
alter table public.lesson_comment_moderation enable row level security;
create index lesson_comment_moderation_school_id_idx on public.lesson_comment_moderation (school_id);
create index lesson_comment_moderation_hidden_by_idx on public.lesson_comment_moderation (hidden_by);
revoke all on public.lesson_comment_moderation from public, anon, authenticated;
-- Written only by hide_comment / unhide_comment.
grant select on public.lesson_comment_moderation to authenticated;
grant all on public.lesson_comment_moderation to service_role;
create policy lesson_comment_moderation_select on public.lesson_comment_moderation for select to authenticated
  using (school_id in (select private.staff_school_ids()) or (select private.is_super_admin()));
create policy lesson_comment_moderation_password_change on public.lesson_comment_moderation as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));

-- ── Who reads what ───────────────────────────────────────────────────────────────────────────
-- Hidden and pending comments of the schools whose courses the caller sees (a small set: a
-- partial index), so a reply under a hidden or pending question stays out of sight too.
create function private.withheld_comment_ids() returns setof uuid
language sql stable security definer set search_path = '' as $$
  select c.id from public.lesson_comments c
   where (c.hidden_at is not null or c.status = 'pending')
     and c.course_id in (select private.viewable_course_ids())
$$;
revoke all on function private.withheld_comment_ids() from public, anon, authenticated;
grant execute on function private.withheld_comment_ids() to authenticated, service_role;

-- Staff (and the super admin) read every comment of their school's courses; whoever may open the
-- lesson reads its published, visible comments, plus their own pending ones.
alter policy lesson_comments_select on public.lesson_comments
  using ((select private.is_super_admin())
         or course_id in (select private.staff_course_ids())
         or (lesson_id in (select private.accessible_lesson_ids())
             and hidden_at is null
             and (status = 'published' or user_id = (select auth.uid()))
             and (parent_id is null or parent_id not in (select private.withheld_comment_ids()))));
-- lesson_comments_update stays (the author, with access to the lesson): the trigger adds the 15 minutes.

-- ── Notifications ────────────────────────────────────────────────────────────────────────────
create table public.notifications (
  id uuid primary key default gen_random_uuid(),
  recipient_id uuid not null references public.profiles (id) on delete cascade,
  school_id uuid not null references public.schools (id) on delete cascade,
  -- comment_reply: a student replied to your comment; staff_answer: staff replied to your question, or
  -- marked a reply as its answer; comment_approved: your comment was published; comment_pending
  -- (staff): a new comment waits for approval.
  kind text not null
    constraint notifications_kind_check check (kind in ('comment_reply', 'staff_answer', 'comment_approved', 'comment_pending')),
  -- What to open: /course/{course_id}/lesson/{lesson_id}, at the comment.
  comment_id uuid not null references public.lesson_comments (id) on delete cascade,
  lesson_id uuid not null,
  course_id uuid not null,
  -- As they were when the event happened.
  lesson_title text not null default '',
  actor_name text,
  excerpt text not null default '',
  created_at timestamptz not null default now(),
  read_at timestamptz,
  constraint notifications_once_key unique (recipient_id, kind, comment_id)
);
alter table public.notifications enable row level security;
create index notifications_recipient_id_created_at_idx on public.notifications (recipient_id, created_at desc);
create index notifications_school_id_idx on public.notifications (school_id);
create index notifications_comment_id_idx on public.notifications (comment_id);
revoke all on public.notifications from public, anon, authenticated;
grant select on public.notifications to authenticated;
grant update (read_at) on public.notifications to authenticated;
grant all on public.notifications to service_role;
create policy notifications_select on public.notifications for select to authenticated
  using (recipient_id = (select auth.uid()) and (select private.is_active()));
create policy notifications_update on public.notifications for update to authenticated
  using (recipient_id = (select auth.uid()) and (select private.is_active()))
  with check (recipient_id = (select auth.uid()) and (select private.is_active()));
create policy notifications_password_change on public.notifications as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));

-- One notification per recipient, kind and comment; again = unread again, as new.
create function private.notify(p_recipient uuid, p_kind text, p_comment public.lesson_comments, p_actor text, p_again boolean)
returns void
language plpgsql volatile security definer set search_path = '' as $$
begin
  if p_recipient is null then
    return;
  end if;
  insert into public.notifications (recipient_id, school_id, kind, comment_id, lesson_id, course_id, lesson_title, actor_name, excerpt)
  select p_recipient, c.school_id, p_kind, p_comment.id, p_comment.lesson_id, p_comment.course_id,
         coalesce((select l.title from public.lessons l where l.id = p_comment.lesson_id), ''),
         p_actor, left(p_comment.comment, 140)
    from public.courses c where c.id = p_comment.course_id
  on conflict on constraint notifications_once_key do update
    set read_at = null, created_at = now(), excerpt = excluded.excerpt, actor_name = excluded.actor_name
    where p_again;
end $$;

-- A published reply tells the question's author (staff_answer when staff wrote it).
create function private.notify_reply(p_reply public.lesson_comments) returns void
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_author uuid;
begin
  select q.user_id into v_author from public.lesson_comments q where q.id = p_reply.parent_id and q.hidden_at is null;
  if v_author is not null and v_author <> p_reply.user_id then
    perform private.notify(v_author, case when p_reply.author_role is null then 'comment_reply' else 'staff_answer' end,
                           p_reply, p_reply.author_name, false);
  end if;
end $$;

-- A pending comment tells the school's staff (active accounts with a role there).
create function private.notify_pending(p_comment public.lesson_comments) returns void
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_staff uuid;
begin
  for v_staff in
    select distinct r.user_id from public.user_roles r
      join public.courses c on c.school_id = r.school_id
      join public.profiles p on p.id = r.user_id
     where c.id = p_comment.course_id and r.role in ('SCHOOL_ADMIN', 'INSTRUCTOR', 'STAFF') and p.is_active
  loop
    perform private.notify(v_staff, 'comment_pending', p_comment, p_comment.author_name, true);
  end loop;
end $$;

create function private.lesson_comments_notify() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_question_author uuid;
begin
  if tg_op = 'INSERT' then
    if new.status = 'pending' then
      perform private.notify_pending(new);
    elsif new.parent_id is not null then
      perform private.notify_reply(new);
    end if;
    return null;
  end if;
  if old.status = 'pending' and new.status = 'published' then
    perform private.notify(new.user_id, 'comment_approved', new, null, true);
    update public.notifications n set read_at = now()
     where n.comment_id = new.id and n.kind = 'comment_pending' and n.read_at is null;
    if new.parent_id is not null then
      perform private.notify_reply(new);
    end if;
  elsif old.status = 'published' and new.status = 'pending' then
    perform private.notify_pending(new);
  end if;
  if old.marked_answer_at is null and new.marked_answer_at is not null then
    select q.user_id into v_question_author from public.lesson_comments q where q.id = new.parent_id;
    if v_question_author is not null and v_question_author <> new.user_id then
      perform private.notify(v_question_author, 'staff_answer', new, new.author_name, false);
    end if;
  end if;
  return null;
end $$;
revoke all on function private.notify(uuid, text, public.lesson_comments, text, boolean), private.notify_reply(public.lesson_comments),
  private.notify_pending(public.lesson_comments), private.lesson_comments_notify() from public, anon, authenticated;
-- (Not `update of status`: an edit puts a comment back to pending in a before trigger, not in the SET list.)
create trigger lesson_comments_notify_insert after insert on public.lesson_comments
  for each row execute function private.lesson_comments_notify();
create trigger lesson_comments_notify_update after update on public.lesson_comments
  for each row when (old.status is distinct from new.status or old.marked_answer_at is distinct from new.marked_answer_at)
  execute function private.lesson_comments_notify();

-- "Marcar todas como lidas": the caller's own unread notifications (row-level security decides
-- which: security invoker). Returns how many were marked.
create function public.mark_all_notifications_read() returns integer
language plpgsql volatile security invoker set search_path = '' as $$
declare
  v_count integer;
begin
  update public.notifications set read_at = now() where recipient_id = auth.uid() and read_at is null;
  get diagnostics v_count = row_count;
  return v_count;
end $$;
revoke all on function public.mark_all_notifications_read() from public, anon, authenticated;
grant execute on function public.mark_all_notifications_read() to authenticated, service_role;

-- ── Staff actions on one comment ─────────────────────────────────────────────────────────────
-- The comment, if the caller is staff of its school (else 42501, the same for "not found").
create function private.comment_for_staff(p_comment_id uuid) returns public.lesson_comments
language plpgsql stable security definer set search_path = '' as $$
declare
  v_comment public.lesson_comments;
begin
  select * into v_comment from public.lesson_comments c where c.id = p_comment_id;
  if not found or not private.is_course_staff(v_comment.course_id) then
    raise exception 'Comentário não encontrado.' using errcode = '42501';
  end if;
  return v_comment;
end $$;
revoke all on function private.comment_for_staff(uuid) from public, anon, authenticated;

-- Publishes a pending comment (the author and, for a reply, the question's author are notified).
create function public.approve_comment(p_comment_id uuid) returns void
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_comment public.lesson_comments;
begin
  perform private.refuse_while_password_change_pending();
  v_comment := private.comment_for_staff(p_comment_id);
  update public.lesson_comments set status = 'published' where id = v_comment.id and status = 'pending';
end $$;

-- Hides a comment from students (its notifications go too); the reason is kept for staff.
create function public.hide_comment(p_comment_id uuid, p_reason text default null) returns void
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_comment public.lesson_comments;
  v_reason text := nullif(btrim(coalesce(p_reason, '')), '');
begin
  perform private.refuse_while_password_change_pending();
  v_comment := private.comment_for_staff(p_comment_id);
  if length(v_reason) > 500 then
    raise exception 'O motivo deve ter no máximo 500 caracteres.' using errcode = '22023';
  end if;
  update public.lesson_comments set hidden_at = coalesce(hidden_at, now()) where id = v_comment.id;
  insert into public.lesson_comment_moderation (comment_id, school_id, hidden_reason, hidden_by)
  select v_comment.id, c.school_id, v_reason, auth.uid() from public.courses c where c.id = v_comment.course_id
  on conflict (comment_id) do update set hidden_reason = excluded.hidden_reason, hidden_by = excluded.hidden_by;
  delete from public.notifications n
   where n.comment_id = v_comment.id or n.comment_id in (select r.id from public.lesson_comments r where r.parent_id = v_comment.id);
end $$;

create function public.unhide_comment(p_comment_id uuid) returns void
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_comment public.lesson_comments;
begin
  perform private.refuse_while_password_change_pending();
  v_comment := private.comment_for_staff(p_comment_id);
  update public.lesson_comments set hidden_at = null where id = v_comment.id;
  delete from public.lesson_comment_moderation m where m.comment_id = v_comment.id;
end $$;

-- Marks a reply as the answer to its question (replacing the one marked before), or unmarks it.
create function public.mark_comment_answer(p_comment_id uuid, p_marked boolean default true) returns void
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_reply public.lesson_comments;
begin
  perform private.refuse_while_password_change_pending();
  v_reply := private.comment_for_staff(p_comment_id);
  if v_reply.parent_id is null then
    raise exception 'Só uma resposta pode ser marcada como a resposta da pergunta.' using errcode = '22023';
  end if;
  if not coalesce(p_marked, true) then
    update public.lesson_comments set marked_answer_at = null where id = v_reply.id;
    return;
  end if;
  if v_reply.status <> 'published' or v_reply.hidden_at is not null
     or exists (select 1 from public.lesson_comments q where q.id = v_reply.parent_id and (q.hidden_at is not null or q.status <> 'published')) then
    raise exception 'Só uma resposta publicada e visível pode ser marcada como a resposta.' using errcode = '22023';
  end if;
  update public.lesson_comments set marked_answer_at = null
   where parent_id = v_reply.parent_id and id <> v_reply.id and marked_answer_at is not null;
  update public.lesson_comments set marked_answer_at = coalesce(marked_answer_at, now()) where id = v_reply.id;
end $$;

revoke all on function public.approve_comment(uuid), public.hide_comment(uuid, text), public.unhide_comment(uuid),
  public.mark_comment_answer(uuid, boolean) from public, anon, authenticated;
grant execute on function public.approve_comment(uuid), public.hide_comment(uuid, text), public.unhide_comment(uuid),
  public.mark_comment_answer(uuid, boolean) to authenticated, service_role;

-- ── Staff: Comentários (/admin/comments) ─────────────────────────────────────────────────────
-- Every comment of the school, newest first, one page plus the total. p_filter: 'all',
-- 'unanswered', 'hidden', 'pending'; p_course_id: one course; p_search: the text or the author's name.
create function public.admin_comments(
  p_school_id uuid default null, p_filter text default 'all', p_course_id uuid default null,
  p_search text default null, p_limit integer default 20, p_offset integer default 0
) returns table (
  id uuid, parent_id uuid, course_id uuid, course_title text, lesson_id uuid, lesson_title text,
  user_id uuid, author_name text, author_avatar_url text, author_role text, comment text, status text,
  created_at timestamptz, edited_at timestamptz, hidden_at timestamptz, hidden_reason text, hidden_by_name text,
  marked_answer_at timestamptz, parent_author_name text, parent_comment text, reply_count bigint,
  answered boolean, total_count bigint
)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid;
  v_filter text := coalesce(p_filter, 'all');
  v_term text := nullif(btrim(coalesce(p_search, '')), '');
begin
  perform private.refuse_while_password_change_pending();
  v_school := private.staff_school(p_school_id);
  if v_filter not in ('all', 'unanswered', 'hidden', 'pending') then
    raise exception 'Filtro desconhecido: %', v_filter using errcode = '22023';
  end if;
  return query
  with matches as (
    select lc.*, c.title as course_title
      from public.lesson_comments lc join public.courses c on c.id = lc.course_id
     where c.school_id = v_school
       and (p_course_id is null or lc.course_id = p_course_id)
       and (v_filter = 'all'
            or (v_filter = 'hidden' and lc.hidden_at is not null)
            or (v_filter = 'pending' and lc.status = 'pending')
            or (v_filter = 'unanswered' and lc.parent_id is null and lc.author_role is null and lc.status = 'published'
                and lc.hidden_at is null
                and not exists (select 1 from public.lesson_comments r
                                 where r.parent_id = lc.id and r.hidden_at is null
                                   and (r.author_role is not null or r.marked_answer_at is not null))))
       and (v_term is null or lc.comment ilike '%' || v_term || '%' or lc.author_name ilike '%' || v_term || '%')
  ), page as (
    select m.*, count(*) over () as total_count from matches m
     order by m.created_at desc, m.id desc
     limit least(greatest(coalesce(p_limit, 20), 1), 100) offset greatest(coalesce(p_offset, 0), 0)
  )
  select pg.id, pg.parent_id, pg.course_id, pg.course_title, pg.lesson_id, l.title, pg.user_id, pg.author_name,
         pg.author_avatar_url, pg.author_role, pg.comment, pg.status, pg.created_at, pg.edited_at, pg.hidden_at,
         mo.hidden_reason, hb.name, pg.marked_answer_at, q.author_name, q.comment,
         (select count(*) from public.lesson_comments r where r.parent_id = pg.id),
         case when pg.parent_id is null and pg.author_role is null
              then exists (select 1 from public.lesson_comments r
                            where r.parent_id = pg.id and r.hidden_at is null
                              and (r.author_role is not null or r.marked_answer_at is not null)) end,
         pg.total_count
    from page pg
    join public.lessons l on l.id = pg.lesson_id
    left join public.lesson_comments q on q.id = pg.parent_id
    left join public.lesson_comment_moderation mo on mo.comment_id = pg.id
    left join public.profiles hb on hb.id = mo.hidden_by
   order by pg.created_at desc, pg.id desc;
end $$;

-- The sidebar's counts: unanswered questions, comments waiting for approval, hidden comments.
create function public.admin_comment_counts(p_school_id uuid default null)
returns table (unanswered bigint, pending bigint, hidden bigint)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid;
begin
  perform private.refuse_while_password_change_pending();
  v_school := private.staff_school(p_school_id);
  return query
  -- unanswered: a visible, published question by a student with no visible staff reply and no marked answer.
  select count(*) filter (where lc.parent_id is null and lc.author_role is null and lc.status = 'published'
                                and lc.hidden_at is null
                                and not exists (select 1 from public.lesson_comments r
                                                 where r.parent_id = lc.id and r.hidden_at is null
                                                   and (r.author_role is not null or r.marked_answer_at is not null))),
         count(*) filter (where lc.status = 'pending'),
         count(*) filter (where lc.hidden_at is not null)
    from public.lesson_comments lc join public.courses c on c.id = lc.course_id
   where c.school_id = v_school;
end $$;

revoke all on function public.admin_comments(uuid, text, uuid, text, integer, integer), public.admin_comment_counts(uuid)
  from public, anon, authenticated;
grant execute on function public.admin_comments(uuid, text, uuid, text, integer, integer), public.admin_comment_counts(uuid)
  to authenticated, service_role;

-- ── Ranking ──────────────────────────────────────────────────────────────────────────────────
-- Points of a calendar month (America/Sao_Paulo): 10 per lesson completed in the month, 30 per quiz
-- first passed in the month, 20 per reply marked as the answer in the month (and still published and
-- visible). Counted per school (of the course), student and month in private.ranking_months, kept
-- exact by the triggers below: each change recounts the months it touches of the students it
-- touches, from the rows themselves. school_ranking() then reads one school-month: a few thousand
-- rows at most, never the progress table (100,000 rows at the bench school).
create function private.sp_month(p_at timestamptz) returns date
language sql immutable set search_path = '' as $$
  select date_trunc('month', p_at at time zone 'America/Sao_Paulo')::date
$$;

create table private.ranking_months (
  school_id uuid not null references public.schools (id) on delete cascade,
  month date not null constraint ranking_months_month_check check (extract(day from month) = 1),
  user_id uuid not null references public.profiles (id) on delete cascade,
  lessons integer not null default 0,
  quizzes integer not null default 0,
  answers integer not null default 0,
  points integer generated always as (10 * lessons + 30 * quizzes + 20 * answers) stored,
  primary key (school_id, month, user_id)
);
alter table private.ranking_months enable row level security;
revoke all on private.ranking_months from public, anon, authenticated;
create index ranking_months_user_id_idx on private.ranking_months (user_id, month);
create index ranking_months_points_idx on private.ranking_months (school_id, month, points desc);

-- Recounts these (student, month) pairs (parallel arrays) from progress, quiz_attempts and
-- lesson_comments. A change by one request (a few students) waits for another one recounting the
-- same student, so neither overwrites the other with an older count; bulk changes (a seed, a course
-- deleted) do not lock.
create function private.ranking_refresh(p_users uuid[], p_months date[]) returns void
language plpgsql volatile security definer set search_path = '' as $$
begin
  if coalesce(cardinality(p_users), 0) = 0 then
    return;
  end if;
  if cardinality(p_users) <= 20 then
    perform pg_advisory_xact_lock(hashtextextended('ranking:' || u::text, 0))
       from (select distinct u from unnest(p_users) as x(u) where u is not null order by u) s;
  end if;
  with keys as (
    select distinct k.user_id, k.month,
           k.month::timestamp at time zone 'America/Sao_Paulo' as from_at,
           (k.month + interval '1 month')::timestamp at time zone 'America/Sao_Paulo' as to_at
      from unnest(p_users, p_months) as k(user_id, month)
     where k.user_id is not null and k.month is not null
  ),
  fresh as (
    select x.school_id, x.user_id, x.month, sum(x.l)::integer as lessons, sum(x.q)::integer as quizzes, sum(x.a)::integer as answers
      from (
        select c.school_id, k.user_id, k.month, count(*) as l, 0 as q, 0 as a
          from keys k
          join public.progress pr on pr.user_id = k.user_id and pr.completed_at >= k.from_at and pr.completed_at < k.to_at
          join public.courses c on c.id = pr.course_id
         group by c.school_id, k.user_id, k.month
        union all
        select c.school_id, k.user_id, k.month, 0, count(*), 0
          from keys k
          join lateral (select a.course_id, min(a.submitted_at) as first_pass
                          from public.quiz_attempts a where a.user_id = k.user_id and a.passed
                         group by a.quiz_id, a.course_id) f on f.first_pass >= k.from_at and f.first_pass < k.to_at
          join public.courses c on c.id = f.course_id
         group by c.school_id, k.user_id, k.month
        union all
        select c.school_id, k.user_id, k.month, 0, 0, count(*)
          from keys k
          join public.lesson_comments lc on lc.user_id = k.user_id and lc.marked_answer_at >= k.from_at and lc.marked_answer_at < k.to_at
                                        and lc.hidden_at is null and lc.status = 'published'
          join public.courses c on c.id = lc.course_id
         group by c.school_id, k.user_id, k.month
      ) x
     group by x.school_id, x.user_id, x.month
  ),
  gone as (
    delete from private.ranking_months rm using keys k
     where rm.user_id = k.user_id and rm.month = k.month
       and not exists (select 1 from fresh f where f.school_id = rm.school_id and f.user_id = rm.user_id and f.month = rm.month)
  )
  insert into private.ranking_months (school_id, user_id, month, lessons, quizzes, answers)
  select f.school_id, f.user_id, f.month, f.lessons, f.quizzes, f.answers
    from fresh f join public.profiles p on p.id = f.user_id
  on conflict (school_id, month, user_id) do update
    set lessons = excluded.lessons, quizzes = excluded.quizzes, answers = excluded.answers;
end $$;

-- progress: a completion (completion is final; a deleted row or a changed owner recounts too).
create function private.progress_ranking_rows() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_op = 'INSERT' then
    perform private.ranking_refresh(array_agg(n.user_id), array_agg(private.sp_month(n.completed_at)))
       from new_rows n where n.completed_at is not null;
  else
    perform private.ranking_refresh(array_agg(o.user_id), array_agg(private.sp_month(o.completed_at)))
       from old_rows o where o.completed_at is not null;
  end if;
  return null;
end $$;
create function private.progress_ranking_row() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.ranking_refresh(array[old.user_id, new.user_id],
                                  array[private.sp_month(old.completed_at), private.sp_month(new.completed_at)]);
  return null;
end $$;
create trigger progress_ranking_insert after insert on public.progress
  referencing new table as new_rows for each statement execute function private.progress_ranking_rows();
create trigger progress_ranking_delete after delete on public.progress
  referencing old table as old_rows for each statement execute function private.progress_ranking_rows();
create trigger progress_ranking_update after update on public.progress
  for each row when (old.completed_at is distinct from new.completed_at or old.user_id is distinct from new.user_id
                     or old.course_id is distinct from new.course_id)
  execute function private.progress_ranking_row();

-- quiz_attempts: a pass. Every month the student passed that quiz in is recounted: the first pass may move.
create function private.quiz_ranking_refresh(p_users uuid[], p_quizzes uuid[], p_months date[]) returns void
language plpgsql volatile security definer set search_path = '' as $$
begin
  perform private.ranking_refresh(array_agg(m.user_id), array_agg(m.month))
     from (select k.user_id, k.month from unnest(p_users, p_months) as k(user_id, month)
           union
           select a.user_id, private.sp_month(a.submitted_at)
             from (select distinct user_id, quiz_id from unnest(p_users, p_quizzes) as k(user_id, quiz_id)) k
             join public.quiz_attempts a on a.user_id = k.user_id and a.quiz_id = k.quiz_id
            where a.passed) m;
end $$;
create function private.quiz_attempts_ranking_rows() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_op = 'INSERT' then
    perform private.quiz_ranking_refresh(array_agg(n.user_id), array_agg(n.quiz_id), array_agg(private.sp_month(n.submitted_at)))
       from new_rows n where n.passed;
  else
    perform private.quiz_ranking_refresh(array_agg(o.user_id), array_agg(o.quiz_id), array_agg(private.sp_month(o.submitted_at)))
       from old_rows o where o.passed;
  end if;
  return null;
end $$;
create function private.quiz_attempts_ranking_row() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.quiz_ranking_refresh(array[old.user_id, new.user_id], array[old.quiz_id, new.quiz_id],
                                       array[case when old.passed then private.sp_month(old.submitted_at) end,
                                             case when new.passed then private.sp_month(new.submitted_at) end]);
  return null;
end $$;
create trigger quiz_attempts_ranking_insert after insert on public.quiz_attempts
  referencing new table as new_rows for each statement execute function private.quiz_attempts_ranking_rows();
create trigger quiz_attempts_ranking_delete after delete on public.quiz_attempts
  referencing old table as old_rows for each statement execute function private.quiz_attempts_ranking_rows();
create trigger quiz_attempts_ranking_update after update on public.quiz_attempts
  for each row when (old.passed is distinct from new.passed or old.submitted_at is distinct from new.submitted_at
                     or old.user_id is distinct from new.user_id or old.course_id is distinct from new.course_id)
  execute function private.quiz_attempts_ranking_row();

-- lesson_comments: a reply marked as the answer (marked, unmarked, hidden, shown, deleted).
create function private.lesson_comments_ranking_row() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_op = 'INSERT' then
    perform private.ranking_refresh(array[new.user_id], array[private.sp_month(new.marked_answer_at)]);
    return null;
  elsif tg_op = 'DELETE' then
    perform private.ranking_refresh(array[old.user_id], array[private.sp_month(old.marked_answer_at)]);
    return null;
  end if;
  perform private.ranking_refresh(array[old.user_id, new.user_id],
                                  array[private.sp_month(old.marked_answer_at), private.sp_month(new.marked_answer_at)]);
  return null;
end $$;
create trigger lesson_comments_ranking_insert after insert on public.lesson_comments
  for each row when (new.marked_answer_at is not null) execute function private.lesson_comments_ranking_row();
create trigger lesson_comments_ranking_delete after delete on public.lesson_comments
  for each row when (old.marked_answer_at is not null) execute function private.lesson_comments_ranking_row();
create trigger lesson_comments_ranking_update after update on public.lesson_comments
  for each row when ((old.marked_answer_at is not null or new.marked_answer_at is not null)
                     and (old.marked_answer_at is distinct from new.marked_answer_at or old.hidden_at is distinct from new.hidden_at
                          or old.status is distinct from new.status or old.user_id is distinct from new.user_id
                          or old.course_id is distinct from new.course_id))
  execute function private.lesson_comments_ranking_row();

revoke all on function private.sp_month(timestamptz), private.ranking_refresh(uuid[], date[]),
  private.quiz_ranking_refresh(uuid[], uuid[], date[]), private.progress_ranking_rows(), private.progress_ranking_row(),
  private.quiz_attempts_ranking_rows(), private.quiz_attempts_ranking_row(), private.lesson_comments_ranking_row()
  from public, anon, authenticated;

-- What happened before this migration (no comment is marked yet).
select private.ranking_refresh(array_agg(k.user_id), array_agg(k.month))
  from (select distinct p.user_id, private.sp_month(p.completed_at) as month from public.progress p where p.completed_at is not null
        union
        select a.user_id, private.sp_month(a.submitted_at) from public.quiz_attempts a where a.passed) k;

-- The home's "Ranking" card: the month's top 10 of the caller's school (or p_school_id, for its
-- staff) and the caller's own position. Ranked: the school's students (active accounts of the
-- school without a role) who did not opt out and have points this month. Position = 1 + how many
-- ranked students have more points (ties share it); the top 10 are in position order, then by name.
create function public.school_ranking(p_school_id uuid default null) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid := coalesce(p_school_id, private.my_school_id());
  v_month date := private.sp_month(now());
  v_enabled boolean;
  v_opted_out boolean;
  v_is_student boolean;
  v_result jsonb;
begin
  perform private.refuse_while_password_change_pending();
  if v_school is null or not (v_school is not distinct from private.my_school_id() or private.is_school_staff(v_school)) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  select s.ranking_enabled into v_enabled from public.school_discussion_settings s where s.school_id = v_school;
  select exists (select 1 from public.ranking_opt_outs o where o.user_id = p.id),
         p.school_id = v_school and not private.has_any_role(p.id)
    into v_opted_out, v_is_student
    from public.profiles p where p.id = auth.uid();
  v_result := jsonb_build_object(
    'enabled', coalesce(v_enabled, false), 'month', v_month, 'opted_out', coalesce(v_opted_out, false),
    'weights', jsonb_build_object('lesson', 10, 'quiz', 30, 'answer', 20));
  if not coalesce(v_enabled, false) then
    return v_result || jsonb_build_object('top', '[]'::jsonb, 'me', null);
  end if;
  with ranked as (
    select rm.user_id, p.name, p.avatar_url, rm.lessons, rm.quizzes, rm.answers, rm.points,
           rank() over (order by rm.points desc) as pos,
           row_number() over (order by rm.points desc, p.name, rm.user_id) as rn
      from private.ranking_months rm
      join public.profiles p on p.id = rm.user_id
     where rm.school_id = v_school and rm.month = v_month and rm.points > 0
       and p.school_id = v_school and p.is_active
       and not exists (select 1 from public.ranking_opt_outs o where o.user_id = rm.user_id)
       and not exists (select 1 from public.user_roles r where r.user_id = rm.user_id)
  )
  select v_result || jsonb_build_object(
           'top', coalesce((select jsonb_agg(jsonb_build_object('position', t.pos, 'user_id', t.user_id, 'name', t.name,
                                                                'avatar_url', t.avatar_url, 'points', t.points, 'lessons', t.lessons,
                                                                'quizzes', t.quizzes, 'answers', t.answers) order by t.rn)
                              from ranked t where t.rn <= 10), '[]'::jsonb),
           'me', case when v_is_student and not v_opted_out then
                   coalesce((select jsonb_build_object('position', m.pos, 'points', m.points, 'lessons', m.lessons,
                                                       'quizzes', m.quizzes, 'answers', m.answers)
                               from ranked m where m.user_id = auth.uid()),
                            jsonb_build_object('position', null, 'points', 0, 'lessons', 0, 'quizzes', 0, 'answers', 0))
                 end)
    into v_result;
  return v_result;
end $$;
revoke all on function public.school_ranking(uuid) from public, anon, authenticated;
grant execute on function public.school_ranking(uuid) to authenticated, service_role;
