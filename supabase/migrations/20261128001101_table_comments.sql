-- Issue 45: every table says what it holds, in the database itself. docs/data-model.md described 16 of
-- the 48 tables by hand and drifted; its overview of each area is now generated from these comments
-- (npm run gen:schema-doc), and supabase/schemas/<area>.sql and docs/schema.md show them beside each
-- table. A migration that adds a table comments it in the same file. Comments only: nothing else changes.
set local lock_timeout = '5s';

-- Platform
comment on table public.system_config is 'Platform-wide keys the super admin sets (set_system_config), e.g. ASAAS_API_KEY: the key''s last 4 characters and a description; the key itself is in private.system_secrets.';
comment on table private.system_secrets is 'The secret value of each system_config key, read only by edge functions through get_system_secret (service role).';

-- Schools and accounts
comment on table public.schools is 'A school (tenant): its slug (login URL), name, member area title, logo, banners, colours and support WhatsApp; anonymous visitors read only the login page''s columns.';
comment on table public.profiles is 'One account (id = auth.users.id) of one school: name, contact details, photo, active flag and whether the password must change; blank optional fields are null. Students never read other students'' profiles.';
comment on table public.user_roles is 'Staff and admin roles: SUPER_ADMIN (no school), SCHOOL_ADMIN, INSTRUCTOR or STAFF of a school. An account without a role is a student.';
comment on table private.school_webhook_secrets is 'The secret of the school''s x-webhook-secret header for tenant-webhook and student-webhook, made with the school; staff reveal and rotate it.';
comment on table private.webhook_signatures_seen is 'Signed student-webhook requests already used, per school, until they expire: a replayed request is refused.';

-- Courses and content
comment on table public.courses is 'A course of a school: title, slug (unique in the school), images, price and installments, status (DRAFT, PUBLISHED, ARCHIVED), total_lessons (kept by trigger) and whether it gives a certificate.';
comment on table public.modules is 'A module of a course, in order; release_mode says when it opens for a student: IMMEDIATE, AFTER_ENROLLMENT (release_after_days) or ON_DATE (release_on, 00:00 in São Paulo).';
comment on table public.lessons is 'A lesson of a module, in order: title, video type and length, is_preview. The outline every member of the school may read; course_id is set from the module by trigger.';
comment on table public.lesson_contents is 'The protected part of a lesson (text and video URL; for uploaded videos the object path in lesson-videos), readable only with access to the lesson. Created empty with the lesson: update or upsert it.';
comment on table public.materials is 'A course''s or lesson''s material: an external link (url) or a file in the lesson-materials bucket (file_path), never both.';
comment on table public.announcements is 'News of a school, or of one of its courses, on the students'' home: title, HTML body, image or video, active flag and priority (0-100).';

-- Enrollments, access and progress
comment on table public.enrollments is 'A student''s enrollment in a course: ACTIVE or PAUSED, optional expiry; opened by staff, by a paid payment or by a subscription (subscription_id). Access to lessons starts here.';
comment on table public.progress is 'A student''s progress in a lesson: the last and furthest video positions and completed_at, final once set (a quiz lesson completes only when its quiz is passed).';
comment on table public.lesson_ratings is 'A student''s rating (1-5) of a lesson, one per student and lesson.';
comment on table public.certificates is 'A course certificate, recorded once when the student has completed every lesson (issue_certificate) and never changed: a public code and a snapshot of the names, completion date and workload.';

-- Quizzes
comment on table public.quizzes is 'The quiz of a lesson (one at most): pass mark, attempts, wait between attempts, time limit, shuffling, when answers are shown, and the published version students take.';
comment on table public.quiz_versions is 'A published version of a quiz: its questions frozen as they were published, so attempts are graded against what the student saw.';
comment on table public.quiz_questions is 'The draft questions staff edit; publishing copies them into a new quiz_versions row.';
comment on table public.quiz_attempts is 'A student''s attempt at a published quiz version: started, deadline, submitted, score and passed, graded in the database.';
comment on table public.quiz_attempt_answers is 'The options a student chose for each question of an attempt, and what each earned.';

-- Selling and payments
comment on table public.integration_settings is 'A school''s payment provider account (Asaas): environment, active flag and the API key''s last 4 characters; the key is in private.integration_secrets.';
comment on table private.integration_secrets is 'The API key (and webhook token) of each integration_settings row, read only by edge functions (service role).';
comment on table public.coupons is 'A discount code of a school: percent or fixed amount, validity, use limits in all and per buyer, and every course or those of coupon_courses.';
comment on table public.coupon_courses is 'The courses a coupon applies to when it is not for all of them.';
comment on table public.course_bumps is 'An order bump ("Leve também"): another course of the same school offered at a price on a course''s checkout.';
comment on table public.payments is 'A charge at the provider for a student''s purchase or a subscription''s period: method, value computed in the database, coupon and discount, status kept by the provider''s events; once paid it enrolls the student.';
comment on table public.payment_items is 'What a payment buys: the course and each bump, with list price, discount and value.';
comment on table public.coupon_uses is 'A coupon reserved by a pending payment, used when it is paid, released when it fails; the limits count these.';
comment on table private.coupon_code_misses is 'Unknown coupon codes tried in the last minute, per account and per school and address (the code''s hash): the guess limit.';
comment on table private.payment_events is 'Each provider event received, by its id, with what it did: a repeated delivery acts once.';

-- Subscriptions
comment on table public.plans is 'A subscription plan of a school: name, cycle, price and billing methods, for a set of courses (plan_courses).';
comment on table public.plan_courses is 'The courses a plan opens.';
comment on table public.subscriptions is 'A student''s subscription to a plan at the provider: status, paid_until and cancellation; its enrollments stay open while paid (plus the school''s grace days).';

-- E-mails
comment on table public.school_email_settings is 'A school''s e-mail settings: kinds it does not send, sender name and reply-to address.';
comment on table public.email_unsubscribes is 'The optional e-mail kinds a student stopped (one-click link or profile).';
comment on table private.email_secrets is 'The key that signs the one-click unsubscribe tokens; only the database knows it.';
comment on table private.access_links is 'One-time links of the "Acesso liberado" e-mail to choose a password (only the token''s hash), valid 7 days, and when one was resent.';

-- Discussions and ranking
comment on table public.school_discussion_settings is 'A school''s discussion settings: comments wait for approval, and the students'' monthly ranking is on.';
comment on table public.lesson_comments is 'Questions under a lesson and their replies (one level): author name and photo copied from the profile, staff badge, pending or published, hidden by staff, and the reply marked as the answer.';
comment on table public.lesson_comment_moderation is 'Why and by whom a comment was hidden; staff only.';
comment on table public.notifications is 'The bell: a reply or staff answer to a student''s question, a comment waiting for approval for staff; read_at once seen.';
comment on table public.ranking_opt_outs is 'Students who chose not to appear in their school''s ranking.';
comment on table public.ranking_notices is 'Students who were told they appear in the ranking (and how to leave it).';
comment on table private.ranking_months is 'Each student''s points per school and São Paulo month: lessons completed, quizzes passed first time and answers marked; kept by triggers, read by school_ranking.';

-- Analytics
comment on table private.student_activity is 'The São Paulo days on which each account signed in or studied, per school: the dashboard''s active students.';
