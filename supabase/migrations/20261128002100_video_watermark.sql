-- Issue 39, "the student's name on every frame": over every lesson video the player draws a moving
-- watermark with the viewer's name and masked CPF (or e-mail). A school may turn it off in Settings;
-- it is on unless the school says otherwise. The school's staff change it as they change the rest of
-- the school (schools_update: staff of the school, second factor as for any staff power); everyone
-- signed in at the school reads it with the school row.
set local lock_timeout = '5s';

alter table public.schools
  add column video_watermark boolean not null default true;
comment on column public.schools.video_watermark is
  'Lesson videos show a moving watermark with the viewer''s name and masked CPF (or e-mail); on by default.';
grant update (video_watermark) on public.schools to authenticated;
