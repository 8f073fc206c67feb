-- Tables of SPEC §3 as planned in docs/data-model.md: constraints and indexes beside the table they
-- guard. Row-level security, grants and policies are in 20261122000400_rls.sql; every table here gets
-- RLS enabled in this file so no table is ever exposed without it, even between migrations.

-- Schema for everything the API must not expose: role helpers, trigger functions, secrets.
-- PostgREST exposes only `public`; usage on `private` is granted (in the RLS migration) only so
-- policies can call the helpers.
create schema if not exists private;
revoke all on schema private from public;

-- ── Shared helpers for constraints and triggers ──────────────────────────────────────────────

-- An image focal point as the CSS background-position the SPA writes: 'X% Y%', each 0-100.
create or replace function private.is_image_position(p text) returns boolean
language sql immutable set search_path = '' as $$
  select p ~ '^(100(\.0+)?|[0-9]{1,2}(\.[0-9]+)?)% (100(\.0+)?|[0-9]{1,2}(\.[0-9]+)?)%$'
$$;

-- Lowercase words joined by single hyphens (school slugs, course slugs).
create or replace function private.is_slug(p text) returns boolean
language sql immutable set search_path = '' as $$
  select p ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and length(p) <= 100
$$;

-- Keeps updated_at current and created_at immutable on every update.
create or replace function private.touch_timestamps() returns trigger
language plpgsql set search_path = '' as $$
begin
  new.created_at := old.created_at;
  new.updated_at := now();
  return new;
end $$;

-- ── schools ──────────────────────────────────────────────────────────────────────────────────
create table public.schools (
  id uuid primary key default gen_random_uuid(),
  slug text not null constraint schools_slug_key unique
    constraint schools_slug_format check (private.is_slug(slug)),
  name text not null constraint schools_name_not_blank check (length(btrim(name)) between 1 and 200),
  description text constraint schools_description_length check (length(description) <= 5000),
  member_area_name text
    constraint schools_member_area_name_not_blank check (length(btrim(member_area_name)) between 1 and 200),
  logo_url text constraint schools_logo_url_length check (length(logo_url) <= 2000),
  login_banner_url text constraint schools_login_banner_url_length check (length(login_banner_url) <= 2000),
  login_banner_position text not null default '50% 50%'
    constraint schools_login_banner_position_format check (private.is_image_position(login_banner_position)),
  banner_url text constraint schools_banner_url_length check (length(banner_url) <= 2000),
  banner_position text not null default '50% 50%'
    constraint schools_banner_position_format check (private.is_image_position(banner_position)),
  primary_color text not null default '#3b82f6'
    constraint schools_primary_color_format check (primary_color ~ '^#[0-9a-fA-F]{6}$'),
  secondary_color text not null default '#8b5cf6'
    constraint schools_secondary_color_format check (secondary_color ~ '^#[0-9a-fA-F]{6}$'),
  -- Country code + area code + number, digits only (SPEC §5).
  support_whatsapp text constraint schools_support_whatsapp_format check (support_whatsapp ~ '^[0-9]{12,13}$'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.schools enable row level security;
create trigger schools_touch before update on public.schools
  for each row execute function private.touch_timestamps();

-- ── profiles (one per auth user, created by the trigger on auth.users) ────────────────────────
create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  -- A school with accounts cannot be deleted by accident: move or delete the accounts first.
  school_id uuid references public.schools (id) on delete restrict,
  name text not null default '' constraint profiles_name_length check (length(name) <= 200),
  phone text constraint profiles_phone_length check (length(phone) <= 30),
  cpf text constraint profiles_cpf_format check (cpf ~ '^[0-9]{3}\.?[0-9]{3}\.?[0-9]{3}-?[0-9]{2}$'),
  address text constraint profiles_address_length check (length(address) <= 500),
  avatar_url text constraint profiles_avatar_url_length check (length(avatar_url) <= 2000),
  is_active boolean not null default true,
  must_change_password boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.profiles enable row level security;
create index profiles_school_id_created_at_idx on public.profiles (school_id, created_at desc);

-- Optional text fields arrive as '' from forms: store them as null so checks and "não informado" work.
create or replace function private.profiles_normalize() returns trigger
language plpgsql set search_path = '' as $$
begin
  new.name := btrim(coalesce(new.name, ''));
  new.phone := nullif(btrim(new.phone), '');
  new.cpf := nullif(btrim(new.cpf), '');
  new.address := nullif(btrim(new.address), '');
  new.avatar_url := nullif(btrim(new.avatar_url), '');
  return new;
end $$;
create trigger profiles_normalize before insert or update on public.profiles
  for each row execute function private.profiles_normalize();
create trigger profiles_touch before update on public.profiles
  for each row execute function private.touch_timestamps();

-- ── user_roles ───────────────────────────────────────────────────────────────────────────────
create table public.user_roles (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  school_id uuid references public.schools (id) on delete cascade,
  role text not null
    constraint user_roles_role_check check (role in ('SUPER_ADMIN', 'SCHOOL_ADMIN', 'INSTRUCTOR', 'STAFF')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- School roles belong to a school; only the platform-wide SUPER_ADMIN may have none.
  constraint user_roles_school_required check (role = 'SUPER_ADMIN' or school_id is not null),
  constraint user_roles_unique unique nulls not distinct (user_id, school_id, role)
);
alter table public.user_roles enable row level security;
create index user_roles_school_id_role_idx on public.user_roles (school_id, role);
create trigger user_roles_touch before update on public.user_roles
  for each row execute function private.touch_timestamps();

-- ── courses ──────────────────────────────────────────────────────────────────────────────────
create table public.courses (
  id uuid primary key default gen_random_uuid(),
  school_id uuid not null references public.schools (id) on delete cascade,
  instructor_id uuid references public.profiles (id) on delete set null,
  title text not null constraint courses_title_not_blank check (length(btrim(title)) between 1 and 200),
  description text constraint courses_description_length check (length(description) <= 10000),
  slug text not null constraint courses_slug_format check (private.is_slug(slug)),
  thumbnail_url text constraint courses_thumbnail_url_length check (length(thumbnail_url) <= 2000),
  thumbnail_position text not null default '50% 50%'
    constraint courses_thumbnail_position_format check (private.is_image_position(thumbnail_position)),
  banner_url text constraint courses_banner_url_length check (length(banner_url) <= 2000),
  banner_position text not null default '50% 50%'
    constraint courses_banner_position_format check (private.is_image_position(banner_position)),
  purchase_url text constraint courses_purchase_url_format check (purchase_url ~ '^https?://\S+$'),
  price numeric(10, 2) not null default 0 constraint courses_price_check check (price >= 0),
  max_installments integer not null default 1
    constraint courses_max_installments_check check (max_installments between 1 and 12),
  status text not null default 'DRAFT'
    constraint courses_status_check check (status in ('DRAFT', 'PUBLISHED', 'ARCHIVED')),
  total_lessons integer not null default 0 constraint courses_total_lessons_check check (total_lessons >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint courses_school_slug_key unique (school_id, slug)
);
alter table public.courses enable row level security;
-- (school_id, slug) unique index also serves "by school"; these serve the student and admin lists.
create index courses_school_id_status_idx on public.courses (school_id, status);
create index courses_school_id_created_at_idx on public.courses (school_id, created_at desc);
create index courses_instructor_id_idx on public.courses (instructor_id);
create trigger courses_touch before update on public.courses
  for each row execute function private.touch_timestamps();

-- ── modules ──────────────────────────────────────────────────────────────────────────────────
create table public.modules (
  id uuid primary key default gen_random_uuid(),
  course_id uuid not null references public.courses (id) on delete cascade,
  title text not null constraint modules_title_not_blank check (length(btrim(title)) between 1 and 200),
  description text constraint modules_description_length check (length(description) <= 5000),
  thumbnail_url text constraint modules_thumbnail_url_length check (length(thumbnail_url) <= 2000),
  order_index integer not null default 0 constraint modules_order_index_check check (order_index >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.modules enable row level security;
create index modules_course_id_order_idx on public.modules (course_id, order_index);
create trigger modules_touch before update on public.modules
  for each row execute function private.touch_timestamps();

-- A module stays in its course: lessons, progress and storage paths hang off the course id.
create or replace function private.modules_keep_course() returns trigger
language plpgsql set search_path = '' as $$
begin
  if new.course_id is distinct from old.course_id then
    raise exception 'a module cannot move to another course' using errcode = '42501';
  end if;
  return new;
end $$;
create trigger modules_keep_course before update of course_id on public.modules
  for each row execute function private.modules_keep_course();

-- ── lessons: the outline every student of the school may read ─────────────────────────────────
create table public.lessons (
  id uuid primary key default gen_random_uuid(),
  module_id uuid not null references public.modules (id) on delete cascade,
  -- Denormalised from the module (trigger below) so policies need no join.
  course_id uuid not null references public.courses (id) on delete cascade,
  title text not null constraint lessons_title_not_blank check (length(btrim(title)) between 1 and 200),
  video_type text not null default 'none'
    constraint lessons_video_type_check check (video_type in ('none', 'youtube', 'vimeo', 'upload')),
  duration_sec integer not null default 0 constraint lessons_duration_sec_check check (duration_sec >= 0),
  order_index integer not null default 0 constraint lessons_order_index_check check (order_index >= 0),
  is_preview boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.lessons enable row level security;
create index lessons_module_id_order_idx on public.lessons (module_id, order_index);
create index lessons_course_id_idx on public.lessons (course_id);
create trigger lessons_touch before update on public.lessons
  for each row execute function private.touch_timestamps();

-- course_id always comes from the module, never from the client. Security definer so the real
-- course is found even when the caller cannot see the module; RLS then judges the real course.
create or replace function private.lessons_set_course() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  new.course_id := (select m.course_id from public.modules m where m.id = new.module_id);
  if new.course_id is null then
    raise exception 'module % not found', new.module_id using errcode = '23503';
  end if;
  return new;
end $$;
create trigger lessons_set_course before insert or update on public.lessons
  for each row execute function private.lessons_set_course();

-- ── lesson_contents: content and video, readable only with access to the lesson ──────────────
create table public.lesson_contents (
  lesson_id uuid primary key references public.lessons (id) on delete cascade,
  -- Rich text (HTML or Markdown); the SPA sanitises it for display.
  content text constraint lesson_contents_content_length check (length(content) <= 200000),
  -- youtube/vimeo: the page URL. upload: the object path in bucket lesson-videos.
  video_url text constraint lesson_contents_video_url_length check (length(video_url) <= 2000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.lesson_contents enable row level security;
create trigger lesson_contents_touch before update on public.lesson_contents
  for each row execute function private.touch_timestamps();

-- Every lesson has its contents row, so the SPA can update (or upsert) it right after creating the lesson.
create or replace function private.lessons_create_contents() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into public.lesson_contents (lesson_id) values (new.id) on conflict (lesson_id) do nothing;
  return null;
end $$;
create trigger lessons_create_contents after insert on public.lessons
  for each row execute function private.lessons_create_contents();

-- Rows that name a lesson take their course_id from it (never from the client), so policies on
-- course_id are trustworthy. Used by materials, progress, lesson_comments, lesson_ratings.
create or replace function private.set_course_from_lesson() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.lesson_id is not null then
    new.course_id := (select l.course_id from public.lessons l where l.id = new.lesson_id);
    if new.course_id is null then
      raise exception 'lesson % not found', new.lesson_id using errcode = '23503';
    end if;
  end if;
  return new;
end $$;

-- ── materials ────────────────────────────────────────────────────────────────────────────────
create table public.materials (
  id uuid primary key default gen_random_uuid(),
  course_id uuid not null references public.courses (id) on delete cascade,
  lesson_id uuid references public.lessons (id) on delete cascade,
  title text not null constraint materials_title_not_blank check (length(btrim(title)) between 1 and 200),
  type text not null default 'OTHER'
    constraint materials_type_check check (type in ('PDF', 'SLIDE', 'SHEET', 'LINK', 'OTHER', 'VIDEO')),
  -- An external link, or the object path of an uploaded file in bucket lesson-materials.
  url text constraint materials_url_format check (url ~ '^https?://\S+$' and length(url) <= 2000),
  file_path text constraint materials_file_path_length check (length(file_path) between 1 and 1000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint materials_url_or_file check (num_nonnulls(url, file_path) = 1)
);
alter table public.materials enable row level security;
create index materials_course_id_idx on public.materials (course_id, created_at desc);
create index materials_lesson_id_idx on public.materials (lesson_id, created_at desc);
create trigger materials_touch before update on public.materials
  for each row execute function private.touch_timestamps();
create trigger materials_set_course before insert or update on public.materials
  for each row execute function private.set_course_from_lesson();

-- ── enrollments ──────────────────────────────────────────────────────────────────────────────
create table public.enrollments (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  course_id uuid not null references public.courses (id) on delete cascade,
  status text not null default 'ACTIVE' constraint enrollments_status_check check (status in ('ACTIVE', 'PAUSED')),
  -- null: never expires. An expired enrollment grants no access.
  expires_at timestamptz,
  cohort_id text constraint enrollments_cohort_id_length check (length(cohort_id) <= 200),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint enrollments_user_course_key unique (user_id, course_id)
);
alter table public.enrollments enable row level security;
create index enrollments_course_id_idx on public.enrollments (course_id, status);
create index enrollments_user_id_status_idx on public.enrollments (user_id, status);
create trigger enrollments_touch before update on public.enrollments
  for each row execute function private.touch_timestamps();

-- A student is enrolled only in courses of their own school.
create or replace function private.enrollments_same_school() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if not exists (
    select 1 from public.profiles p join public.courses c on c.school_id = p.school_id
    where p.id = new.user_id and c.id = new.course_id
  ) then
    raise exception 'student and course belong to different schools' using errcode = '23514';
  end if;
  return new;
end $$;
create trigger enrollments_same_school before insert or update of user_id, course_id on public.enrollments
  for each row execute function private.enrollments_same_school();

-- ── progress ─────────────────────────────────────────────────────────────────────────────────
create table public.progress (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  course_id uuid not null references public.courses (id) on delete cascade,
  lesson_id uuid not null references public.lessons (id) on delete cascade,
  completed_at timestamptz,
  last_position_sec integer not null default 0 constraint progress_last_position_sec_check check (last_position_sec >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint progress_user_lesson_key unique (user_id, lesson_id)
);
alter table public.progress enable row level security;
create index progress_course_id_user_id_idx on public.progress (course_id, user_id);
create index progress_lesson_id_idx on public.progress (lesson_id);
create trigger progress_touch before update on public.progress
  for each row execute function private.touch_timestamps();
create trigger progress_set_course before insert or update on public.progress
  for each row execute function private.set_course_from_lesson();

-- Completion is final: once completed_at is set it keeps its value (an upsert that sends null or a
-- new time leaves it as it was), while last_position_sec stays updatable.
create or replace function private.progress_keep_completion() returns trigger
language plpgsql set search_path = '' as $$
begin
  if old.completed_at is not null then
    new.completed_at := old.completed_at;
  end if;
  return new;
end $$;
create trigger progress_keep_completion before update on public.progress
  for each row execute function private.progress_keep_completion();

-- ── lesson_comments ──────────────────────────────────────────────────────────────────────────
create table public.lesson_comments (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  lesson_id uuid not null references public.lessons (id) on delete cascade,
  course_id uuid not null references public.courses (id) on delete cascade,
  comment text not null constraint lesson_comments_comment_length check (length(comment) between 1 and 2000),
  -- Copied from the author's profile by trigger (never from the client), so readers of a comment
  -- never need to read another user's profile.
  author_name text not null default '',
  author_avatar_url text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.lesson_comments enable row level security;
create index lesson_comments_lesson_id_created_at_idx on public.lesson_comments (lesson_id, created_at desc);
create index lesson_comments_course_id_idx on public.lesson_comments (course_id);
create index lesson_comments_user_id_idx on public.lesson_comments (user_id);
create trigger lesson_comments_touch before update on public.lesson_comments
  for each row execute function private.touch_timestamps();
create trigger lesson_comments_set_course before insert or update on public.lesson_comments
  for each row execute function private.set_course_from_lesson();

create or replace function private.lesson_comments_prepare() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  new.comment := btrim(new.comment);
  select p.name, p.avatar_url into new.author_name, new.author_avatar_url
  from public.profiles p where p.id = new.user_id;
  new.author_name := coalesce(new.author_name, '');
  return new;
end $$;
create trigger lesson_comments_prepare before insert or update on public.lesson_comments
  for each row execute function private.lesson_comments_prepare();

-- Comments follow the author's current name and avatar.
create or replace function private.profiles_sync_comment_authors() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update public.lesson_comments
     set author_name = new.name, author_avatar_url = new.avatar_url
   where user_id = new.id;
  return null;
end $$;
create trigger profiles_sync_comment_authors after update of name, avatar_url on public.profiles
  for each row when (old.name is distinct from new.name or old.avatar_url is distinct from new.avatar_url)
  execute function private.profiles_sync_comment_authors();

-- ── lesson_ratings ───────────────────────────────────────────────────────────────────────────
create table public.lesson_ratings (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  lesson_id uuid not null references public.lessons (id) on delete cascade,
  course_id uuid not null references public.courses (id) on delete cascade,
  rating smallint not null constraint lesson_ratings_rating_check check (rating between 1 and 5),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint lesson_ratings_user_lesson_key unique (user_id, lesson_id)
);
alter table public.lesson_ratings enable row level security;
create index lesson_ratings_lesson_id_idx on public.lesson_ratings (lesson_id);
create index lesson_ratings_course_id_idx on public.lesson_ratings (course_id);
create trigger lesson_ratings_touch before update on public.lesson_ratings
  for each row execute function private.touch_timestamps();
create trigger lesson_ratings_set_course before insert or update on public.lesson_ratings
  for each row execute function private.set_course_from_lesson();

-- ── announcements ────────────────────────────────────────────────────────────────────────────
create table public.announcements (
  id uuid primary key default gen_random_uuid(),
  school_id uuid not null references public.schools (id) on delete cascade,
  instructor_id uuid references public.profiles (id) on delete set null,
  course_id uuid references public.courses (id) on delete cascade,
  title text not null constraint announcements_title_not_blank check (length(btrim(title)) between 1 and 200),
  -- HTML; the SPA sanitises it for display.
  body text not null constraint announcements_body_not_blank check (length(btrim(body)) between 1 and 20000),
  image_url text constraint announcements_image_url_length check (length(image_url) <= 2000),
  -- youtube/vimeo: page URL; direct: object path in bucket announcement-videos.
  video_url text constraint announcements_video_url_length check (length(video_url) <= 2000),
  video_type text not null default 'youtube'
    constraint announcements_video_type_check check (video_type in ('youtube', 'vimeo', 'direct')),
  is_active boolean not null default true,
  priority integer not null default 0 constraint announcements_priority_check check (priority between 0 and 100),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.announcements enable row level security;
create index announcements_school_id_priority_idx on public.announcements (school_id, is_active, priority desc, created_at desc);
create index announcements_instructor_id_idx on public.announcements (instructor_id);
create index announcements_course_id_idx on public.announcements (course_id);
create trigger announcements_touch before update on public.announcements
  for each row execute function private.touch_timestamps();

-- A course-specific announcement belongs to the course's school.
create or replace function private.announcements_same_school() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.course_id is not null and not exists (
    select 1 from public.courses c where c.id = new.course_id and c.school_id = new.school_id
  ) then
    raise exception 'course belongs to another school' using errcode = '23514';
  end if;
  return new;
end $$;
create trigger announcements_same_school before insert or update of school_id, course_id on public.announcements
  for each row execute function private.announcements_same_school();

-- ── integration_settings (the key itself lives in private.integration_secrets) ───────────────
create table public.integration_settings (
  id uuid primary key default gen_random_uuid(),
  school_id uuid not null references public.schools (id) on delete cascade,
  provider text not null constraint integration_settings_provider_check check (provider in ('asaas', 'stripe')),
  environment text not null default 'sandbox'
    constraint integration_settings_environment_check check (environment in ('sandbox', 'production')),
  is_active boolean not null default true,
  -- For the masked display '••••1234'; set by public.create_integration.
  api_key_last4 text not null default '' constraint integration_settings_api_key_last4_length check (length(api_key_last4) <= 4),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.integration_settings enable row level security;
create index integration_settings_school_id_idx on public.integration_settings (school_id, provider, is_active);
create trigger integration_settings_touch before update on public.integration_settings
  for each row execute function private.touch_timestamps();

create table private.integration_secrets (
  integration_id uuid primary key references public.integration_settings (id) on delete cascade,
  api_key text not null constraint integration_secrets_api_key_not_blank check (length(btrim(api_key)) between 1 and 500),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table private.integration_secrets enable row level security;
create trigger integration_secrets_touch before update on private.integration_secrets
  for each row execute function private.touch_timestamps();

-- ── system_config (the value itself lives in private.system_secrets) ──────────────────────────
create table public.system_config (
  id uuid primary key default gen_random_uuid(),
  key text not null constraint system_config_key_key unique
    constraint system_config_key_format check (key ~ '^[A-Z][A-Z0-9_]{0,99}$'),
  value_last4 text not null default '' constraint system_config_value_last4_length check (length(value_last4) <= 4),
  description text constraint system_config_description_length check (length(description) <= 1000),
  created_by uuid references public.profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.system_config enable row level security;
create index system_config_created_by_idx on public.system_config (created_by);
create trigger system_config_touch before update on public.system_config
  for each row execute function private.touch_timestamps();

create table private.system_secrets (
  config_id uuid primary key references public.system_config (id) on delete cascade,
  value text not null constraint system_secrets_value_not_blank check (length(btrim(value)) between 1 and 2000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table private.system_secrets enable row level security;
create trigger system_secrets_touch before update on private.system_secrets
  for each row execute function private.touch_timestamps();
