-- Issue 40: "Discussões por turma", a school setting beside "Ranking por turma" (docs/turmas.md,
-- docs/discussions.md). When on, a student in a turma (ACTIVE, unexpired) discusses with their turma only:
-- - lesson_comments.turma_id: a student's comment is written into their turma of the course (set by the
--   trigger lesson_comments_validate, recreated here, never by the client); a staff reply joins its
--   question's turma; a staff question, and everything of a student outside any turma, stays course-wide
--   (null), as before. A student cannot reply into another turma's thread ("Esta conversa é de outra turma.").
-- - Why lesson_comments gets a restrictive select policy: a turma's comment is read only by the turma's
--   students with access and the course's staff (and the super admin), even after the setting is turned
--   off (what was written for the turma stays the turma's). A course-wide comment (turma_id null) reads as
--   before, and its arm of the policy is the first: for a student outside any turma, or a school without
--   turmas, nothing more runs (the page budgets stay as they were).
-- - admin_comments gains p_turma_id (Comentários' Turma filter) and answers each comment's turma.
set local lock_timeout = '5s';

alter table public.school_discussion_settings add column discussions_by_turma boolean not null default false;
comment on column public.school_discussion_settings.discussions_by_turma is '"Discussões por turma" (issue 40): a student in a turma reads and writes comments with their turma only.';

alter table public.lesson_comments add column turma_id uuid references public.turmas (id) on delete set null;
comment on column public.lesson_comments.turma_id is 'The turma the comment was written in ("Discussões por turma"); null: course-wide.';
create index lesson_comments_turma_id_idx on public.lesson_comments (turma_id) where turma_id is not null;

-- 20261128001000's rules of a comment, plus the turma it is written in (one place, in the statement that
-- already reads the school's settings, so a course-wide comment with the setting off reads nothing more).
create or replace function private.lesson_comments_validate() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_api boolean := coalesce(auth.role(), '') = 'authenticated';
  v_parent public.lesson_comments;
  v_school uuid;
  v_approval boolean;
  v_recent integer;
  v_by_turma boolean;
  v_mine uuid;
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
    select c.school_id, s.comments_require_approval, coalesce(s.discussions_by_turma, false) into v_school, v_approval, v_by_turma
      from public.courses c left join public.school_discussion_settings s on s.school_id = c.school_id
     where c.id = new.course_id;
    new.author_role := private.staff_role_at(new.user_id, v_school);
    -- "Discussões por turma": staff reply in their question's turma; a student writes into their turma
    -- (setting on) and never into another turma's thread. Nothing is read for a course-wide comment with
    -- the setting off.
    if new.author_role is not null or not (v_by_turma or v_parent.turma_id is not null) then
      new.turma_id := v_parent.turma_id;
    else
      select e.turma_id into v_mine from public.enrollments e
       where e.user_id = new.user_id and e.course_id = new.course_id and e.turma_id is not null
         and e.status = 'ACTIVE' and (e.expires_at is null or e.expires_at > now());
      if v_parent.turma_id is not null and v_parent.turma_id is distinct from v_mine then
        raise exception 'Esta conversa é de outra turma.' using errcode = '42501';
      end if;
      new.turma_id := case when v_by_turma then v_mine else v_parent.turma_id end;
    end if;
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
      -- Written as staff (the badge, no approval): the new text speaks for the school too, so the session must
      -- hold a staff role now, as its author wrote it (aal2 for an account with a verified factor).
      if old.author_role is not null
         and private.staff_role_at(new.user_id, (select c.school_id from public.courses c where c.id = new.course_id)) is null then
        if coalesce(auth.jwt() ->> 'aal', '') <> 'aal2' and private.has_verified_factor() then
          raise exception 'Confirme a verificação em duas etapas para editar uma resposta da equipe.' using errcode = 'DC403';
        end if;
        raise exception 'Só a equipe da escola pode editar uma resposta da equipe.' using errcode = 'DC403';
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

create policy lesson_comments_turma on public.lesson_comments as restrictive for select to authenticated
  using (turma_id is null
         or turma_id in (select private.my_active_turma_ids())
         or course_id in (select private.staff_course_ids())
         or (select private.is_super_admin()));

-- 20261128000300's list, with the turma: p_turma_id keeps one turma's comments.
drop function public.admin_comments(uuid, text, uuid, text, integer, integer);
create function public.admin_comments(
  p_school_id uuid default null, p_filter text default 'all', p_course_id uuid default null,
  p_search text default null, p_limit integer default 20, p_offset integer default 0, p_turma_id uuid default null
) returns table (
  id uuid, parent_id uuid, course_id uuid, course_title text, lesson_id uuid, lesson_title text,
  user_id uuid, author_name text, author_avatar_url text, author_role text, comment text, status text,
  created_at timestamptz, edited_at timestamptz, hidden_at timestamptz, hidden_reason text, hidden_by_name text,
  marked_answer_at timestamptz, parent_author_name text, parent_comment text, reply_count bigint,
  answered boolean, total_count bigint, turma_id uuid, turma_name text
)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid;
  v_filter text := coalesce(p_filter, 'all');
  v_term text := private.search_term(p_search);
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
       and (p_turma_id is null or lc.turma_id = p_turma_id)
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
         pg.total_count, pg.turma_id, t.name
    from page pg
    join public.lessons l on l.id = pg.lesson_id
    left join public.turmas t on t.id = pg.turma_id
    left join public.lesson_comments q on q.id = pg.parent_id
    left join public.lesson_comment_moderation mo on mo.comment_id = pg.id
    left join public.profiles hb on hb.id = mo.hidden_by
   order by pg.created_at desc, pg.id desc;
end $$;
revoke all on function public.admin_comments(uuid, text, uuid, text, integer, integer, uuid) from public, anon, authenticated;
grant execute on function public.admin_comments(uuid, text, uuid, text, integer, integer, uuid) to authenticated, service_role;
