-- Certificates of completion (issue 14). A student who completed every lesson of a course asks for
-- the certificate; it is recorded once, with a SNAPSHOT of what it certifies (student, course and
-- school names, completion date, workload), so later edits to the course or the profile never change
-- an issued certificate. Anyone holding the code can check it on the public page /certificado/<code>
-- through public.verify_certificate, which answers those fields for that one code and nothing else.

-- ── courses: staff turn certificates on or off per course ───────────────────────────────────
alter table public.courses add column certificate_enabled boolean not null default true;
-- courses has per-column update grants (20261122000400_rls.sql): add the new one.
grant update (certificate_enabled) on public.courses to authenticated;

-- ── Verification codes ──────────────────────────────────────────────────────────────────────
-- 24 symbols of Crockford's base32 (no I, L, O, U: nothing to misread) in groups of four, e.g.
-- 7K2M-Q9XD-...: 24 × 5 = 120 random bits, from pgcrypto's CSPRNG (256 is a multiple of 32, so
-- `byte & 31` is uniform). Unguessable, and short enough to read over the phone.
create or replace function private.new_certificate_code() returns text
language sql volatile set search_path = '' as $$
  select string_agg(
           substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (get_byte(r.b, i) & 31) + 1, 1)
             || case when i % 4 = 3 and i < 23 then '-' else '' end,
           '' order by i)
  from (select extensions.gen_random_bytes(24) as b) r, generate_series(0, 23) as i
$$;
revoke all on function private.new_certificate_code() from public, anon, authenticated;

-- ── certificates ────────────────────────────────────────────────────────────────────────────
create table public.certificates (
  id uuid primary key default gen_random_uuid(),
  code text not null constraint certificates_code_key unique
    constraint certificates_code_format check (code ~ '^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){5}$'),
  -- The account goes, its certificates go (personal data); the course goes, the record stays.
  user_id uuid not null references public.profiles (id) on delete cascade,
  course_id uuid references public.courses (id) on delete set null,
  school_id uuid not null references public.schools (id) on delete cascade,
  -- Snapshot at issue time: what the certificate says, whatever changes later.
  student_name text not null constraint certificates_student_name_length check (length(btrim(student_name)) between 1 and 200),
  course_title text not null constraint certificates_course_title_length check (length(btrim(course_title)) between 1 and 200),
  school_name text not null constraint certificates_school_name_length check (length(btrim(school_name)) between 1 and 200),
  -- The student's last lesson completion in the course.
  completed_at timestamptz not null,
  -- Sum of the lessons' duration_sec in whole hours, rounded, at least 1 (see issue_certificate).
  workload_hours integer not null constraint certificates_workload_hours_check check (workload_hours >= 1),
  issued_at timestamptz not null default now(),
  -- One certificate per student and course (a deleted course's records no longer collide: nulls differ).
  constraint certificates_user_course_key unique (user_id, course_id)
);
alter table public.certificates enable row level security;
-- (user_id, course_id) and code are indexed by their unique constraints; these serve the other
-- foreign key and the school's list in Reports (newest first).
create index certificates_course_id_idx on public.certificates (course_id);
create index certificates_school_id_issued_at_idx on public.certificates (school_id, issued_at desc);

-- Recorded once: nothing but course_id (set null when the course is deleted) ever changes, whoever
-- writes (the API has no update grant; this also holds for the service role and the owner).
create or replace function private.certificates_keep_snapshot() returns trigger
language plpgsql set search_path = '' as $$
begin
  if (new.id, new.code, new.user_id, new.school_id, new.student_name, new.course_title, new.school_name,
      new.completed_at, new.workload_hours, new.issued_at)
     is distinct from
     (old.id, old.code, old.user_id, old.school_id, old.student_name, old.course_title, old.school_name,
      old.completed_at, old.workload_hours, old.issued_at)
     or (new.course_id is not null and new.course_id is distinct from old.course_id) then
    raise exception 'an issued certificate does not change' using errcode = '42501';
  end if;
  return new;
end $$;
revoke all on function private.certificates_keep_snapshot() from public, anon, authenticated;
create trigger certificates_keep_snapshot before update on public.certificates
  for each row execute function private.certificates_keep_snapshot();

-- Read only: rows are written by public.issue_certificate. The student reads their own, staff their
-- school's, the super admin all (set-based helpers, 20261123000700_rls_set_based.sql). anon nothing.
revoke all on public.certificates from anon, authenticated;
grant select on public.certificates to authenticated;
create policy certificates_select on public.certificates for select to authenticated
  using ((user_id = (select auth.uid()) and (select private.is_active()))
         or school_id in (select private.staff_school_ids())
         or (select private.is_super_admin()));

-- ── issue_certificate: the signed-in student asks for their certificate of a course ─────────
-- Returns the certificate already issued for (caller, course), unchanged, if there is one. Otherwise
-- requires an active profile, a PUBLISHED course of the caller's school with certificates enabled, an
-- ACTIVE unexpired enrollment of the caller, and every current lesson of the course (at least one)
-- completed; then records the snapshot. Refusals carry a pt-BR message the SPA shows as is.
create or replace function public.issue_certificate(p_course_id uuid) returns public.certificates
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_cert public.certificates;
  v_course public.courses;
  v_school_name text;
  v_name text;
  v_lessons bigint;
  v_done bigint;
  v_seconds bigint;
  v_completed_at timestamptz;
begin
  if v_uid is null or not private.is_active() then
    raise exception 'Entre na sua conta para emitir o certificado.' using errcode = '42501';
  end if;

  select * into v_cert from public.certificates c where c.user_id = v_uid and c.course_id = p_course_id;
  if found then
    return v_cert;
  end if;

  select c.* into v_course from public.courses c
   where c.id = p_course_id and c.status = 'PUBLISHED' and c.school_id = private.my_school_id()
     and exists (select 1 from public.enrollments e
                 where e.course_id = c.id and e.user_id = v_uid and e.status = 'ACTIVE'
                   and (e.expires_at is null or e.expires_at > now()));
  if not found then
    raise exception 'Você não tem acesso a este curso.' using errcode = '42501';
  end if;
  if not v_course.certificate_enabled then
    raise exception 'Este curso não emite certificado.' using errcode = '22023';
  end if;

  -- Every lesson of the course now (the outline the student sees), completed by the caller.
  select count(*), count(p.completed_at), coalesce(sum(l.duration_sec), 0), max(p.completed_at)
    into v_lessons, v_done, v_seconds, v_completed_at
    from public.lessons l
    left join public.progress p on p.lesson_id = l.id and p.user_id = v_uid and p.completed_at is not null
   where l.course_id = v_course.id;
  if v_lessons = 0 or v_done < v_lessons then
    raise exception 'Conclua todas as aulas do curso para emitir o certificado.' using errcode = '22023';
  end if;

  select btrim(p.name) into v_name from public.profiles p where p.id = v_uid;
  if coalesce(v_name, '') = '' then
    raise exception 'Informe seu nome no perfil para emitir o certificado.' using errcode = '22023';
  end if;
  select s.name into v_school_name from public.schools s where s.id = v_course.school_id;

  insert into public.certificates (code, user_id, course_id, school_id, student_name, course_title, school_name,
                                   completed_at, workload_hours)
  values (private.new_certificate_code(), v_uid, v_course.id, v_course.school_id, v_name, v_course.title, v_school_name,
          v_completed_at,
          -- Whole hours, rounded half up (1 h 29 min → 1, 1 h 30 min → 2); a short course still certifies 1 h.
          greatest(1, round(v_seconds / 3600.0)::integer))
  -- A concurrent call (a double click) inserted it first: answer with that row.
  on conflict (user_id, course_id) do nothing
  returning * into v_cert;
  if v_cert.id is null then
    select * into v_cert from public.certificates c where c.user_id = v_uid and c.course_id = v_course.id;
  end if;
  return v_cert;
end $$;
revoke all on function public.issue_certificate(uuid) from public, anon, authenticated;
grant execute on function public.issue_certificate(uuid) to authenticated;

-- ── verify_certificate: the public check of one code ────────────────────────────────────────
-- The only way anon reaches certificates: exactly these fields of the certificate with this exact
-- code, or no row. Nothing about the student beyond the name printed on the certificate. The one
-- security definer function anon may execute (tests/integration/rls-sql.test.ts lists it).
create or replace function public.verify_certificate(p_code text)
returns table (code text, student_name text, course_title text, school_name text, completed_at timestamptz, workload_hours integer)
language sql stable security definer set search_path = '' as $$
  select c.code, c.student_name, c.course_title, c.school_name, c.completed_at, c.workload_hours
  from public.certificates c
  where c.code = p_code
$$;
revoke all on function public.verify_certificate(text) from public, anon, authenticated;
grant execute on function public.verify_certificate(text) to anon, authenticated;
