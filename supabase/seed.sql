-- Demo data for local runs (never applied in production). Password of every account: senha123.
-- Fixed ids so tests and people can refer to rows (tests/integration/rls/seed.ts mirrors them):
--   schools  5c000000-…-0001 Escola Demo, …-0002 Academia Rival
--   users    a0000000-…-00NN   courses c0000000-…   modules d0000000-…   lessons e0000000-…
--   materials f0000000-…   enrollments 0e000000-…   announcements aa000000-…   comments cc000000-…
--   quizzes 9a000000-…   quiz questions 9b000000-…   quiz versions 9c000000-…   quiz options 9d000000-…
--   coupons cb000000-…   plans ab000000-…
--   issue 25's analytics demo: students a0000000-…-0031 to -0044, their enrollments 0e000000-…-0031 to -0044
--   (Excel) and 0e000000-…-0131 to -0144 (Marketing)
-- Files of storage objects inserted here are in supabase/seed-files/<bucket>/<object name>; local-supabase
-- copies them into local storage when it seeds.

-- ── Schools ──────────────────────────────────────────────────────────────────────────────────
insert into public.schools (id, slug, name, description, member_area_name, logo_url, login_banner_url,
                            login_banner_position, banner_url, banner_position, primary_color, secondary_color,
                            support_whatsapp) values
  ('5c000000-0000-4000-8000-000000000001', 'escola-demo', 'Escola Demo',
   'Cursos práticos de tecnologia, negócios e comunicação para quem quer crescer na carreira.',
   'Área de Membros Demo',
   'http://localhost:54321/storage/v1/object/public/school-banners/5c000000-0000-4000-8000-000000000001/logo.png',
   'http://localhost:54321/storage/v1/object/public/school-banners/5c000000-0000-4000-8000-000000000001/login-banner.jpg',
   '50% 40%',
   'http://localhost:54321/storage/v1/object/public/school-banners/5c000000-0000-4000-8000-000000000001/banner.jpg',
   '50% 50%', '#3b82f6', '#8b5cf6', '5511999998888'),
  ('5c000000-0000-4000-8000-000000000002', 'academia-rival', 'Academia Rival',
   'Idiomas para viajar e trabalhar.', 'Portal do Aluno Rival', null,
   'http://localhost:54321/storage/v1/object/public/school-banners/5c000000-0000-4000-8000-000000000002/login-banner.jpg',
   '50% 50%', null, '50% 50%', '#dc2626', '#1e3a8a', null);

-- ── Accounts (the auth.users trigger creates each profile from raw_user_meta_data) ───────────
insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                        confirmation_token, recovery_token, email_change, email_change_token_new,
                        raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
select '00000000-0000-0000-0000-000000000000', u.id::uuid, 'authenticated', 'authenticated', u.email,
       extensions.crypt('senha123', extensions.gen_salt('bf')), now(), '', '', '', '',
       '{"provider": "email", "providers": ["email"]}'::jsonb,
       jsonb_build_object('name', u.name, 'school_id', u.school_id, 'must_change_password', u.must_change),
       now() - u.age, now() - u.age
from (values
  ('a0000000-0000-4000-8000-000000000001', 'super@plataforma.com.br', 'Sofia Superadmin', '5c000000-0000-4000-8000-000000000001', false, interval '90 days'),
  ('a0000000-0000-4000-8000-000000000002', 'admin@escola-demo.com.br', 'Ana Administradora', '5c000000-0000-4000-8000-000000000001', false, interval '80 days'),
  ('a0000000-0000-4000-8000-000000000003', 'instrutor@escola-demo.com.br', 'Igor Instrutor', '5c000000-0000-4000-8000-000000000001', false, interval '79 days'),
  ('a0000000-0000-4000-8000-000000000004', 'admin@academia-rival.com.br', 'Rita Rival', '5c000000-0000-4000-8000-000000000002', false, interval '70 days'),
  ('a0000000-0000-4000-8000-000000000011', 'aluno@escola-demo.com.br', 'Lucas Aluno', '5c000000-0000-4000-8000-000000000001', false, interval '60 days'),
  ('a0000000-0000-4000-8000-000000000012', 'aluna@escola-demo.com.br', 'Mariana Aluna', '5c000000-0000-4000-8000-000000000001', false, interval '50 days'),
  ('a0000000-0000-4000-8000-000000000013', 'pausado@escola-demo.com.br', 'Paulo Pausado', '5c000000-0000-4000-8000-000000000001', false, interval '40 days'),
  ('a0000000-0000-4000-8000-000000000014', 'expirado@escola-demo.com.br', 'Eva Expirada', '5c000000-0000-4000-8000-000000000001', false, interval '30 days'),
  ('a0000000-0000-4000-8000-000000000015', 'inativo@escola-demo.com.br', 'Ivo Inativo', '5c000000-0000-4000-8000-000000000001', false, interval '20 days'),
  ('a0000000-0000-4000-8000-000000000016', 'novo@escola-demo.com.br', 'Nina Nova', '5c000000-0000-4000-8000-000000000001', true, interval '1 day'),
  ('a0000000-0000-4000-8000-000000000021', 'aluno@academia-rival.com.br', 'Rafael Rival', '5c000000-0000-4000-8000-000000000002', false, interval '10 days')
) as u (id, email, name, school_id, must_change, age);

-- Issue 25: fourteen more students of Escola Demo who joined over the last weeks, so the dashboard's
-- charts and Excel's funnel and video retention have something to show (their rows: end of this file).
-- One password hash for all of them.
with h as (select extensions.crypt('senha123', extensions.gen_salt('bf')) as pw)
insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                        confirmation_token, recovery_token, email_change, email_change_token_new,
                        raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
select '00000000-0000-0000-0000-000000000000', u.id::uuid, 'authenticated', 'authenticated', u.email, h.pw,
       now() - u.age, '', '', '', '',
       '{"provider": "email", "providers": ["email"]}'::jsonb,
       jsonb_build_object('name', u.name, 'school_id', '5c000000-0000-4000-8000-000000000001'),
       now() - u.age, now() - u.age
from h, (values
  ('a0000000-0000-4000-8000-000000000031', 'beatriz.souza@exemplo.com.br', 'Beatriz Souza', interval '38 days 3 hours'),
  ('a0000000-0000-4000-8000-000000000032', 'carlos.pereira@exemplo.com.br', 'Carlos Pereira', interval '33 days 5 hours'),
  ('a0000000-0000-4000-8000-000000000033', 'daniela.lima@exemplo.com.br', 'Daniela Lima', interval '29 days 2 hours'),
  ('a0000000-0000-4000-8000-000000000034', 'eduardo.santos@exemplo.com.br', 'Eduardo Santos', interval '26 days 7 hours'),
  ('a0000000-0000-4000-8000-000000000035', 'fernanda.costa@exemplo.com.br', 'Fernanda Costa', interval '22 days 1 hour'),
  ('a0000000-0000-4000-8000-000000000036', 'gabriel.oliveira@exemplo.com.br', 'Gabriel Oliveira', interval '19 days 4 hours'),
  ('a0000000-0000-4000-8000-000000000037', 'helena.rodrigues@exemplo.com.br', 'Helena Rodrigues', interval '16 days 6 hours'),
  ('a0000000-0000-4000-8000-000000000038', 'julia.almeida@exemplo.com.br', 'Júlia Almeida', interval '13 days 2 hours'),
  ('a0000000-0000-4000-8000-000000000039', 'katia.ferreira@exemplo.com.br', 'Kátia Ferreira', interval '11 days 8 hours'),
  ('a0000000-0000-4000-8000-000000000040', 'leonardo.ribeiro@exemplo.com.br', 'Leonardo Ribeiro', interval '9 days 3 hours'),
  ('a0000000-0000-4000-8000-000000000041', 'marina.carvalho@exemplo.com.br', 'Marina Carvalho', interval '6 days 5 hours'),
  ('a0000000-0000-4000-8000-000000000042', 'otavio.gomes@exemplo.com.br', 'Otávio Gomes', interval '4 days 2 hours'),
  ('a0000000-0000-4000-8000-000000000043', 'patricia.martins@exemplo.com.br', 'Patrícia Martins', interval '2 days 9 hours'),
  ('a0000000-0000-4000-8000-000000000044', 'renata.barbosa@exemplo.com.br', 'Renata Barbosa', interval '1 day 4 hours')
) as u (id, email, name, age);

-- GoTrue (a real Supabase) also needs an email identity per user; local-supabase has no such table.
do $$
begin
  if to_regclass('auth.identities') is not null then
    execute $sql$
      insert into auth.identities (id, user_id, provider_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
      select gen_random_uuid(), u.id, u.id::text,
             jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true),
             'email', now(), now(), now()
      from auth.users u where u.id::text like 'a0000000-0000-4000-8000-%'
      on conflict do nothing
    $sql$;
  end if;
end $$;

-- Profile details the sign-up metadata does not carry.
update public.profiles set phone = '11987654321', cpf = '123.456.789-09', address = 'Rua das Flores, 100 - São Paulo/SP'
 where id = 'a0000000-0000-4000-8000-000000000011';
update public.profiles set phone = '21998765432', cpf = '98765432100'
 where id = 'a0000000-0000-4000-8000-000000000012';
update public.profiles set phone = '11912345678', cpf = '111.222.333-96', address = 'Av. Paulista, 1000 - São Paulo/SP'
 where id = 'a0000000-0000-4000-8000-000000000002';
update public.profiles set phone = '5511900001111', cpf = '529.982.247-25', address = 'Rua Augusta, 55 - São Paulo/SP'
 where id = 'a0000000-0000-4000-8000-000000000021';
update public.profiles set is_active = false where id = 'a0000000-0000-4000-8000-000000000015';

insert into public.user_roles (user_id, school_id, role) values
  ('a0000000-0000-4000-8000-000000000001', null, 'SUPER_ADMIN'),
  ('a0000000-0000-4000-8000-000000000002', '5c000000-0000-4000-8000-000000000001', 'SCHOOL_ADMIN'),
  ('a0000000-0000-4000-8000-000000000003', '5c000000-0000-4000-8000-000000000001', 'INSTRUCTOR'),
  ('a0000000-0000-4000-8000-000000000004', '5c000000-0000-4000-8000-000000000002', 'SCHOOL_ADMIN');

-- ── Courses ──────────────────────────────────────────────────────────────────────────────────
insert into public.courses (id, school_id, instructor_id, title, description, slug, thumbnail_url, thumbnail_position,
                            banner_url, banner_position, purchase_url, price, max_installments, status, total_lessons,
                            created_at) values
  ('c0000000-0000-4000-8000-000000000001', '5c000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000003',
   'Excel Essencial para o Trabalho',
   'Aprenda do zero a organizar planilhas, usar fórmulas e funções como SOMA, MÉDIA e PROCV, e criar gráficos e tabelas dinâmicas para apresentar resultados.',
   'excel-essencial',
   'http://localhost:54321/storage/v1/object/public/course-thumbnails/5c000000-0000-4000-8000-000000000001/excel-essencial.jpg',
   '50% 50%',
   'http://localhost:54321/storage/v1/object/public/course-thumbnails/5c000000-0000-4000-8000-000000000001/excel-essencial-banner.jpg',
   '50% 30%', 'https://pay.exemplo.com.br/escola-demo/excel-essencial', 197.00, 6, 'PUBLISHED', 7, now() - interval '75 days'),
  ('c0000000-0000-4000-8000-000000000002', '5c000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000003',
   'Marketing Digital para Pequenos Negócios',
   'Monte sua presença online: redes sociais, anúncios pagos com orçamento pequeno, e-mail marketing e métricas que importam para vender mais.',
   'marketing-digital',
   'http://localhost:54321/storage/v1/object/public/course-thumbnails/5c000000-0000-4000-8000-000000000001/marketing-digital.webp',
   -- No external sales page: this course is sold by the platform's checkout (Asaas sandbox).
   '50% 50%', null, '50% 50%', null, 297.00, 12, 'PUBLISHED', 3,
   now() - interval '60 days'),
  ('c0000000-0000-4000-8000-000000000003', '5c000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000003',
   'Oratória e Comunicação no Trabalho',
   'Técnicas para falar em público com segurança, estruturar apresentações e conduzir reuniões produtivas. Em produção.',
   'oratoria',
   'http://localhost:54321/storage/v1/object/public/course-thumbnails/5c000000-0000-4000-8000-000000000001/oratoria.png',
   '50% 50%', null, '50% 50%', null, 149.90, 3, 'DRAFT', 1, now() - interval '20 days'),
  ('c0000000-0000-4000-8000-000000000004', '5c000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000002',
   'Photoshop 2019 (edição antiga)',
   'Versão anterior do curso de edição de imagens, substituída e mantida apenas para consulta interna.',
   'photoshop-2019',
   'http://localhost:54321/storage/v1/object/public/course-thumbnails/5c000000-0000-4000-8000-000000000001/photoshop.jpg',
   '50% 50%', null, '50% 50%', null, 0, 1, 'ARCHIVED', 0, now() - interval '300 days'),
  ('c0000000-0000-4000-8000-000000000021', '5c000000-0000-4000-8000-000000000002', 'a0000000-0000-4000-8000-000000000004',
   'Inglês para Viagens',
   'Frases e situações reais para aeroporto, hotel e restaurante.',
   'ingles-viagens',
   'http://localhost:54321/storage/v1/object/public/course-thumbnails/5c000000-0000-4000-8000-000000000002/ingles-viagens.jpg',
   '50% 50%', null, '50% 50%', 'https://pay.exemplo.com.br/academia-rival/ingles', 99.90, 3, 'PUBLISHED', 2,
   now() - interval '40 days');

insert into public.modules (id, course_id, title, description, order_index) values
  ('d0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'Primeiros passos',
   'Conheça a interface do Excel e organize sua primeira planilha.', 0),
  ('d0000000-0000-4000-8000-000000000002', 'c0000000-0000-4000-8000-000000000001', 'Fórmulas e funções',
   'SOMA, MÉDIA, SE e PROCV aplicados a problemas do dia a dia.', 1),
  ('d0000000-0000-4000-8000-000000000003', 'c0000000-0000-4000-8000-000000000001', 'Gráficos e relatórios',
   'Transforme números em gráficos claros e tabelas dinâmicas.', 2),
  ('d0000000-0000-4000-8000-000000000004', 'c0000000-0000-4000-8000-000000000002', 'Fundamentos',
   'Público-alvo, posicionamento e canais.', 0),
  ('d0000000-0000-4000-8000-000000000005', 'c0000000-0000-4000-8000-000000000002', 'Anúncios pagos',
   'Campanhas no Instagram e no Google com pouco orçamento.', 1),
  ('d0000000-0000-4000-8000-000000000006', 'c0000000-0000-4000-8000-000000000003', 'Perder o medo do palco',
   null, 0),
  ('d0000000-0000-4000-8000-000000000021', 'c0000000-0000-4000-8000-000000000021', 'No aeroporto',
   'Check-in, imigração e bagagem.', 0);

-- course_id is filled by trigger from the module; the contents row is created by trigger too.
insert into public.lessons (id, module_id, title, video_type, duration_sec, order_index, is_preview) values
  ('e0000000-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000001', 'Boas-vindas ao curso', 'youtube', 600, 0, true),
  ('e0000000-0000-4000-8000-000000000002', 'd0000000-0000-4000-8000-000000000001', 'Conhecendo a interface', 'vimeo', 480, 1, false),
  ('e0000000-0000-4000-8000-000000000003', 'd0000000-0000-4000-8000-000000000002', 'Fórmulas básicas', 'upload', 6, 0, false),
  ('e0000000-0000-4000-8000-000000000004', 'd0000000-0000-4000-8000-000000000002', 'PROCV na prática', 'youtube', 900, 1, false),
  ('e0000000-0000-4000-8000-000000000005', 'd0000000-0000-4000-8000-000000000003', 'Criando gráficos', 'none', 0, 0, false),
  ('e0000000-0000-4000-8000-000000000006', 'd0000000-0000-4000-8000-000000000003', 'Tabelas dinâmicas', 'youtube', 1200, 1, false),
  -- Quiz-only lesson: the quiz below is all it holds (issue 23).
  ('e0000000-0000-4000-8000-000000000011', 'd0000000-0000-4000-8000-000000000003', 'Avaliação final', 'none', 0, 2, false),
  ('e0000000-0000-4000-8000-000000000007', 'd0000000-0000-4000-8000-000000000004', 'Como funciona o marketing digital', 'youtube', 540, 0, true),
  ('e0000000-0000-4000-8000-000000000008', 'd0000000-0000-4000-8000-000000000004', 'Definindo seu público', 'vimeo', 720, 1, false),
  ('e0000000-0000-4000-8000-000000000009', 'd0000000-0000-4000-8000-000000000005', 'Sua primeira campanha', 'none', 0, 0, false),
  ('e0000000-0000-4000-8000-000000000010', 'd0000000-0000-4000-8000-000000000006', 'Respiração e postura', 'none', 0, 0, false),
  ('e0000000-0000-4000-8000-000000000021', 'd0000000-0000-4000-8000-000000000021', 'Check-in sem sustos', 'youtube', 420, 0, true),
  ('e0000000-0000-4000-8000-000000000022', 'd0000000-0000-4000-8000-000000000021', 'Na imigração', 'youtube', 380, 1, false);

update public.lesson_contents set video_url = 'https://www.youtube.com/watch?v=aqz-KE-bpKQ', content =
  '<h2>Seja bem-vindo!</h2><p>Neste curso você vai dominar o <strong>Excel</strong> do básico ao intermediário, sempre com exemplos do dia a dia de trabalho.</p><ul><li>Organizar dados em planilhas</li><li>Usar fórmulas e funções</li><li>Criar <em>gráficos</em> e relatórios</li></ul><p>Dúvidas? Deixe um comentário abaixo da aula.</p>'
 where lesson_id = 'e0000000-0000-4000-8000-000000000001';
update public.lesson_contents set video_url = 'https://vimeo.com/76979871', content =
  '<p>Faixa de opções, guias, células, linhas e colunas: um tour pela tela do Excel.</p><blockquote>Dica: use <code>Ctrl + Seta</code> para ir até o fim dos dados.</blockquote>'
 where lesson_id = 'e0000000-0000-4000-8000-000000000002';
update public.lesson_contents set
  video_url = '5c000000-0000-4000-8000-000000000001/c0000000-0000-4000-8000-000000000001/e0000000-0000-4000-8000-000000000003/formulas-basicas.mp4',
  -- Its frame at 1 s, as the lesson editor makes it at upload (issue 38): a first visit shows it at once.
  video_poster = '5c000000-0000-4000-8000-000000000001/poster-formulas-basicas.jpg',
  content = E'## Fórmulas básicas\n\nToda fórmula começa com **=**. Exemplos:\n\n- `=SOMA(A1:A10)` soma um intervalo\n- `=MÉDIA(B1:B10)` calcula a média\n\nBaixe a apostila em **Materiais**.'
 where lesson_id = 'e0000000-0000-4000-8000-000000000003';
update public.lesson_contents set video_url = 'https://www.youtube.com/watch?v=jNQXAC9IVRw', content =
  '<p>O <strong>PROCV</strong> busca um valor na primeira coluna de uma tabela e devolve o valor de outra coluna da mesma linha.</p><pre><code>=PROCV(A2; Produtos!A:C; 3; FALSO)</code></pre>'
 where lesson_id = 'e0000000-0000-4000-8000-000000000004';
update public.lesson_contents set content =
  E'# Criando gráficos\n\nEsta aula é só leitura.\n\n1. Selecione os dados\n2. Vá em **Inserir > Gráficos**\n3. Escolha *Colunas* para comparar categorias\n\n> Gráfico bom é gráfico simples.'
 where lesson_id = 'e0000000-0000-4000-8000-000000000005';
update public.lesson_contents set video_url = 'https://www.youtube.com/watch?v=aqz-KE-bpKQ', content =
  '<p>Resuma milhares de linhas em segundos com tabelas dinâmicas.</p>'
 where lesson_id = 'e0000000-0000-4000-8000-000000000006';
update public.lesson_contents set content =
  E'Hora de testar o que você aprendeu no curso: fórmulas, PROCV, gráficos e tabelas dinâmicas.\n\nSão **5 perguntas**. Você é aprovado com **70%** e tem até 3 tentativas, com 1 hora entre elas.'
 where lesson_id = 'e0000000-0000-4000-8000-000000000011';
update public.lesson_contents set video_url = 'https://www.youtube.com/watch?v=jNQXAC9IVRw', content =
  '<p>Aula gratuita: os canais do marketing digital e como escolher por onde começar.</p>'
 where lesson_id = 'e0000000-0000-4000-8000-000000000007';
update public.lesson_contents set video_url = 'https://vimeo.com/76979871', content =
  '<p>Persona, dores e desejos: descubra para quem você vende.</p>'
 where lesson_id = 'e0000000-0000-4000-8000-000000000008';
update public.lesson_contents set content = '<p>Passo a passo da primeira campanha no Instagram.</p>'
 where lesson_id = 'e0000000-0000-4000-8000-000000000009';
update public.lesson_contents set content = '<p>Rascunho da aula.</p>'
 where lesson_id = 'e0000000-0000-4000-8000-000000000010';
update public.lesson_contents set video_url = 'https://www.youtube.com/watch?v=aqz-KE-bpKQ', content =
  '<p>Vocabulário do check-in: <em>boarding pass</em>, <em>gate</em>, <em>carry-on</em>.</p>'
 where lesson_id = 'e0000000-0000-4000-8000-000000000021';
update public.lesson_contents set video_url = 'https://www.youtube.com/watch?v=jNQXAC9IVRw', content =
  '<p>Perguntas comuns na imigração e como responder.</p>'
 where lesson_id = 'e0000000-0000-4000-8000-000000000022';

insert into public.materials (id, course_id, lesson_id, title, type, url, file_path, created_at) values
  ('f0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'e0000000-0000-4000-8000-000000000003',
   'Apostila de fórmulas (PDF)', 'PDF', null,
   '5c000000-0000-4000-8000-000000000001/c0000000-0000-4000-8000-000000000001/e0000000-0000-4000-8000-000000000003/apostila-formulas.pdf',
   now() - interval '70 days'),
  ('f0000000-0000-4000-8000-000000000002', 'c0000000-0000-4000-8000-000000000001', 'e0000000-0000-4000-8000-000000000004',
   'Documentação oficial do PROCV', 'LINK', 'https://support.microsoft.com/pt-br/office/procv', null, now() - interval '69 days'),
  ('f0000000-0000-4000-8000-000000000003', 'c0000000-0000-4000-8000-000000000001', null,
   'Planilha de exercícios do curso', 'SHEET', 'https://exemplo.com.br/escola-demo/exercicios-excel.xlsx', null, now() - interval '68 days'),
  ('f0000000-0000-4000-8000-000000000004', 'c0000000-0000-4000-8000-000000000002', 'e0000000-0000-4000-8000-000000000007',
   'Checklist de canais', 'LINK', 'https://exemplo.com.br/escola-demo/checklist-canais', null, now() - interval '50 days'),
  ('f0000000-0000-4000-8000-000000000021', 'c0000000-0000-4000-8000-000000000021', 'e0000000-0000-4000-8000-000000000022',
   'Frases da imigração', 'PDF', 'https://exemplo.com.br/academia-rival/imigracao.pdf', null, now() - interval '30 days');

-- ── Quiz (issue 23): the "Avaliação final" of Excel Essencial, published ────────────────────────
-- Written as publish_quiz would leave it (that function needs a staff caller): the draft questions,
-- version 1 frozen from them in the same shape, and the quiz pointing at it. Nobody has attempted it.
insert into public.quizzes (id, lesson_id, pass_mark, max_attempts, wait_hours, time_limit_minutes, show_answers,
                            created_at) values
  ('9a000000-0000-4000-8000-000000000001', 'e0000000-0000-4000-8000-000000000011', 70, 3, 1, null, 'after_each_attempt',
   now() - interval '65 days');

insert into public.quiz_questions (id, quiz_id, position, kind, scoring, statement, options, explanation) values
  ('9b000000-0000-4000-8000-000000000001', '9a000000-0000-4000-8000-000000000001', 0, 'single', 'all_or_nothing',
   'Qual fórmula soma os valores das células **A1** até **A10**?',
   '[{"id": "9d000000-0000-4000-8000-000000000011", "text": "=SOMA(A1:A10)", "correct": true},
     {"id": "9d000000-0000-4000-8000-000000000012", "text": "=SOMA(A1;A10)", "correct": false},
     {"id": "9d000000-0000-4000-8000-000000000013", "text": "=A1+A10", "correct": false},
     {"id": "9d000000-0000-4000-8000-000000000014", "text": "=SOMAR(A1:A10)", "correct": false}]',
   'Os dois-pontos indicam um intervalo: `A1:A10` vai de A1 até A10. Com ponto e vírgula, `=SOMA(A1;A10)` soma só as duas células, como `=A1+A10`; e a função se chama SOMA, não SOMAR.'),
  ('9b000000-0000-4000-8000-000000000002', '9a000000-0000-4000-8000-000000000001', 1, 'single', 'all_or_nothing',
   E'Na fórmula `=PROCV(A2; Produtos!A:C; 3; FALSO)`, o que o número **3** indica?',
   '[{"id": "9d000000-0000-4000-8000-000000000021", "text": "A coluna do intervalo de onde vem o resultado", "correct": true},
     {"id": "9d000000-0000-4000-8000-000000000022", "text": "A linha em que a busca começa", "correct": false},
     {"id": "9d000000-0000-4000-8000-000000000023", "text": "Quantos resultados devem ser devolvidos", "correct": false},
     {"id": "9d000000-0000-4000-8000-000000000024", "text": "O número de casas decimais do resultado", "correct": false}]',
   'O terceiro argumento é o número da coluna, contado a partir da primeira coluna do intervalo (A:C): o PROCV devolve o valor da coluna C da linha encontrada. FALSO pede a correspondência exata.'),
  ('9b000000-0000-4000-8000-000000000003', '9a000000-0000-4000-8000-000000000001', 2, 'multiple', 'partial',
   'Quais destas fórmulas estão escritas corretamente no Excel em português? Marque todas as corretas.',
   '[{"id": "9d000000-0000-4000-8000-000000000031", "text": "=MÉDIA(B2:B8)", "correct": true},
     {"id": "9d000000-0000-4000-8000-000000000032", "text": "SOMA(A1:A5)", "correct": false},
     {"id": "9d000000-0000-4000-8000-000000000033", "text": "=SE(A1>10;\"Alto\";\"Baixo\")", "correct": true},
     {"id": "9d000000-0000-4000-8000-000000000034", "text": "=PROCV(A2, B:C, 2, FALSO)", "correct": false},
     {"id": "9d000000-0000-4000-8000-000000000035", "text": "=MÁXIMO(C2:C20)", "correct": true}]',
   'Toda fórmula começa com **=**, por isso `SOMA(A1:A5)` fica como texto. No Excel em português os argumentos são separados por ponto e vírgula (;), não por vírgula. Esta pergunta dá pontuação parcial: cada opção certa marcada soma, cada errada desconta.'),
  ('9b000000-0000-4000-8000-000000000004', '9a000000-0000-4000-8000-000000000001', 3, 'true_false', 'all_or_nothing',
   'Ao reorganizar os campos de uma tabela dinâmica, os dados originais da planilha também mudam.',
   '[{"id": "9d000000-0000-4000-8000-000000000041", "text": "Verdadeiro", "correct": false},
     {"id": "9d000000-0000-4000-8000-000000000042", "text": "Falso", "correct": true}]',
   'A tabela dinâmica só resume os dados de origem: mover campos entre linhas, colunas e valores não altera a planilha original. Quando os dados de origem mudam, use **Atualizar** na tabela dinâmica.'),
  ('9b000000-0000-4000-8000-000000000005', '9a000000-0000-4000-8000-000000000001', 4, 'single', 'all_or_nothing',
   'Você quer comparar o total de vendas de cada vendedor no mês. Qual gráfico é o mais indicado?',
   '[{"id": "9d000000-0000-4000-8000-000000000051", "text": "Colunas", "correct": true},
     {"id": "9d000000-0000-4000-8000-000000000052", "text": "Pizza", "correct": false},
     {"id": "9d000000-0000-4000-8000-000000000053", "text": "Linhas", "correct": false},
     {"id": "9d000000-0000-4000-8000-000000000054", "text": "Dispersão", "correct": false}]',
   'Colunas comparam categorias lado a lado. Pizza mostra as partes de um todo, linhas mostram a evolução ao longo do tempo e dispersão relaciona duas medidas.');

-- Version 1: the questions as publish_quiz freezes them (same keys, same order).
insert into public.quiz_versions (id, quiz_id, course_id, number, questions, created_by, created_at)
select '9c000000-0000-4000-8000-000000000001', q.quiz_id, q.course_id, 1,
       jsonb_agg(jsonb_build_object('id', q.id, 'kind', q.kind, 'scoring', q.scoring, 'statement', q.statement,
                                    'image_path', q.image_path, 'explanation', q.explanation, 'options', q.options)
                 order by q.position, q.created_at, q.id),
       'a0000000-0000-4000-8000-000000000003', now() - interval '64 days'
  from public.quiz_questions q where q.quiz_id = '9a000000-0000-4000-8000-000000000001'
 group by q.quiz_id, q.course_id;

update public.quizzes set published_version_id = '9c000000-0000-4000-8000-000000000001',
                          published_at = now() - interval '64 days', questions_updated_at = now() - interval '64 days'
 where id = '9a000000-0000-4000-8000-000000000001';

-- ── Selling (issue 24): a coupon, an order bump and a monthly plan, so `npm start` shows them ──────
-- BEMVINDO20: 20% off every Escola Demo course, no expiry, unlimited uses (R$ 297,00 → R$ 237,60).
insert into public.coupons (id, school_id, code, kind, amount, valid_from, valid_until, max_uses, max_uses_per_buyer,
                            all_courses, is_active, created_at) values
  ('cb000000-0000-4000-8000-000000000001', '5c000000-0000-4000-8000-000000000001', 'BEMVINDO20', 'percent', 20,
   null, null, null, null, true, true, now() - interval '10 days');
-- Marketing's checkout offers Excel Essencial (R$ 197,00) for R$ 97,00 to whoever is not enrolled in it.
insert into public.course_bumps (course_id, bump_course_id, price) values
  ('c0000000-0000-4000-8000-000000000002', 'c0000000-0000-4000-8000-000000000001', 97.00);
-- Plano Completo: R$ 49,90 a month for every published course of Escola Demo, by PIX, boleto or card.
insert into public.plans (id, school_id, slug, name, description, cycle, price, billing_types, is_active, created_at) values
  ('ab000000-0000-4000-8000-000000000001', '5c000000-0000-4000-8000-000000000001', 'plano-completo', 'Plano Completo',
   'Todos os cursos publicados da Escola Demo enquanto a assinatura estiver em dia. Cancele quando quiser.',
   'MONTHLY', 49.90, array['PIX', 'BOLETO', 'CREDIT_CARD'], true, now() - interval '10 days');
insert into public.plan_courses (plan_id, course_id)
select 'ab000000-0000-4000-8000-000000000001', c.id from public.courses c
 where c.school_id = '5c000000-0000-4000-8000-000000000001' and c.status = 'PUBLISHED';

-- ── Enrollments ──────────────────────────────────────────────────────────────────────────────
insert into public.enrollments (id, user_id, course_id, status, expires_at, cohort_id, created_at) values
  ('0e000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000011', 'c0000000-0000-4000-8000-000000000001', 'ACTIVE', null, 'turma-2026-1', now() - interval '55 days'),
  ('0e000000-0000-4000-8000-000000000002', 'a0000000-0000-4000-8000-000000000013', 'c0000000-0000-4000-8000-000000000001', 'PAUSED', null, null, now() - interval '35 days'),
  ('0e000000-0000-4000-8000-000000000003', 'a0000000-0000-4000-8000-000000000014', 'c0000000-0000-4000-8000-000000000001', 'ACTIVE', now() - interval '1 day', null, now() - interval '29 days'),
  ('0e000000-0000-4000-8000-000000000004', 'a0000000-0000-4000-8000-000000000015', 'c0000000-0000-4000-8000-000000000001', 'ACTIVE', null, null, now() - interval '19 days'),
  ('0e000000-0000-4000-8000-000000000021', 'a0000000-0000-4000-8000-000000000021', 'c0000000-0000-4000-8000-000000000021', 'ACTIVE', null, null, now() - interval '9 days');

-- ── Progress, ratings, comments (authors' name/avatar are copied by trigger) ─────────────────
insert into public.progress (user_id, lesson_id, completed_at, last_position_sec) values
  ('a0000000-0000-4000-8000-000000000011', 'e0000000-0000-4000-8000-000000000001', now() - interval '50 days', 600),
  ('a0000000-0000-4000-8000-000000000011', 'e0000000-0000-4000-8000-000000000002', now() - interval '45 days', 480),
  ('a0000000-0000-4000-8000-000000000011', 'e0000000-0000-4000-8000-000000000003', null, 3),
  ('a0000000-0000-4000-8000-000000000014', 'e0000000-0000-4000-8000-000000000001', now() - interval '20 days', 600),
  ('a0000000-0000-4000-8000-000000000021', 'e0000000-0000-4000-8000-000000000021', now() - interval '5 days', 420);

insert into public.lesson_ratings (user_id, lesson_id, rating) values
  ('a0000000-0000-4000-8000-000000000011', 'e0000000-0000-4000-8000-000000000001', 5),
  ('a0000000-0000-4000-8000-000000000011', 'e0000000-0000-4000-8000-000000000002', 4),
  ('a0000000-0000-4000-8000-000000000021', 'e0000000-0000-4000-8000-000000000021', 5);

insert into public.lesson_comments (id, user_id, lesson_id, comment, created_at) values
  ('cc000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000011', 'e0000000-0000-4000-8000-000000000001',
   'Aula muito clara! Já consegui organizar a planilha de gastos da minha empresa.', now() - interval '49 days'),
  ('cc000000-0000-4000-8000-000000000002', 'a0000000-0000-4000-8000-000000000003', 'e0000000-0000-4000-8000-000000000001',
   'Que ótimo, Lucas! No módulo 2 vamos automatizar essa planilha com fórmulas.', now() - interval '48 days'),
  ('cc000000-0000-4000-8000-000000000003', 'a0000000-0000-4000-8000-000000000011', 'e0000000-0000-4000-8000-000000000003',
   'O vídeo ficou curtinho, mas a apostila ajudou bastante.', now() - interval '40 days'),
  ('cc000000-0000-4000-8000-000000000021', 'a0000000-0000-4000-8000-000000000021', 'e0000000-0000-4000-8000-000000000021',
   'Very useful, thanks!', now() - interval '4 days');

-- ── Announcements ────────────────────────────────────────────────────────────────────────────
insert into public.announcements (id, school_id, instructor_id, course_id, title, body, image_url, video_url, video_type,
                                  is_active, priority, created_at) values
  ('aa000000-0000-4000-8000-000000000001', '5c000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000002', null,
   'Bem-vindo à nova Área de Membros!',
   '<h2>Novidades</h2><p>Agora você acompanha seu <strong>progresso</strong> em cada curso e pode <em>avaliar</em> as aulas.</p><p>Confira o curso <a href="/course/c0000000-0000-4000-8000-000000000001">Excel Essencial</a>.</p>',
   'http://localhost:54321/storage/v1/object/public/course-thumbnails/5c000000-0000-4000-8000-000000000001/anuncio-boas-vindas.jpg',
   null, 'youtube', true, 10, now() - interval '2 days'),
  ('aa000000-0000-4000-8000-000000000002', '5c000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000003',
   'c0000000-0000-4000-8000-000000000002',
   'Aula ao vivo de Marketing Digital',
   '<p>Quinta-feira às 20h: tire suas dúvidas ao vivo.</p>', null,
   'https://www.youtube.com/watch?v=jNQXAC9IVRw', 'youtube', true, 5, now() - interval '1 day'),
  ('aa000000-0000-4000-8000-000000000003', '5c000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000002', null,
   'Manutenção programada (encerrado)', '<p>A plataforma ficará fora do ar no domingo.</p>', null, null, 'youtube',
   false, 0, now() - interval '30 days'),
  ('aa000000-0000-4000-8000-000000000021', '5c000000-0000-4000-8000-000000000002', 'a0000000-0000-4000-8000-000000000004', null,
   'Welcome!', '<p>Bem-vindo à Academia Rival.</p>', null, null, 'youtube', true, 1, now() - interval '3 days');

-- ── Secrets (stored the way create_integration / set_system_config store them) ──────────────
-- Sandbox Asaas integrations: locally the fake Asaas (scripts/fake-asaas.ts) knows these keys and
-- sends its webhooks with these tokens, so the checkout works end to end right after `npm start`.
insert into public.integration_settings (id, school_id, provider, environment, is_active, api_key_last4, has_webhook_token) values
  ('ee000000-0000-4000-8000-000000000001', '5c000000-0000-4000-8000-000000000001', 'asaas', 'sandbox', true, 'demo', true),
  ('ee000000-0000-4000-8000-000000000021', '5c000000-0000-4000-8000-000000000002', 'asaas', 'sandbox', true, 'ival', true);
insert into private.integration_secrets (integration_id, api_key, webhook_token) values
  ('ee000000-0000-4000-8000-000000000001', '$aact_SEGREDO_escola_demo', 'whtok_escola_demo_local_0123456789abcdef'),
  ('ee000000-0000-4000-8000-000000000021', '$aact_SEGREDO_academia_rival', 'whtok_academia_rival_local_0123456789abcdef');
insert into public.system_config (id, key, value_last4, description, created_by) values
  ('5f000000-0000-4000-8000-000000000001', 'ASAAS_API_KEY', '_key', 'Chave Asaas da plataforma (sandbox de demonstração)',
   'a0000000-0000-4000-8000-000000000001');
insert into private.system_secrets (config_id, value) values
  ('5f000000-0000-4000-8000-000000000001', '$aact_SEGREDO_sistema_key');

-- ── Storage objects whose bytes are in supabase/seed-files/<bucket>/<name> ───────────────────
insert into storage.objects (bucket_id, name, owner, metadata)
select o.bucket, o.name, null,
       jsonb_build_object('size', o.size, 'mimetype', o.mime, 'contentLength', o.size, 'cacheControl', 'max-age=3600',
                          'httpStatusCode', 200)
from (values
  ('school-banners', '5c000000-0000-4000-8000-000000000001/banner.jpg', 6458, 'image/jpeg'),
  ('school-banners', '5c000000-0000-4000-8000-000000000001/login-banner.jpg', 7161, 'image/jpeg'),
  ('school-banners', '5c000000-0000-4000-8000-000000000001/logo.png', 1399, 'image/png'),
  ('school-banners', '5c000000-0000-4000-8000-000000000002/login-banner.jpg', 7416, 'image/jpeg'),
  ('course-thumbnails', '5c000000-0000-4000-8000-000000000001/excel-essencial.jpg', 3502, 'image/jpeg'),
  ('course-thumbnails', '5c000000-0000-4000-8000-000000000001/excel-essencial-banner.jpg', 4214, 'image/jpeg'),
  ('course-thumbnails', '5c000000-0000-4000-8000-000000000001/marketing-digital.webp', 844, 'image/webp'),
  ('course-thumbnails', '5c000000-0000-4000-8000-000000000001/oratoria.png', 6093, 'image/png'),
  ('course-thumbnails', '5c000000-0000-4000-8000-000000000001/photoshop.jpg', 3600, 'image/jpeg'),
  ('course-thumbnails', '5c000000-0000-4000-8000-000000000001/anuncio-boas-vindas.jpg', 5515, 'image/jpeg'),
  ('course-thumbnails', '5c000000-0000-4000-8000-000000000002/ingles-viagens.jpg', 4393, 'image/jpeg'),
  ('lesson-videos',
   '5c000000-0000-4000-8000-000000000001/c0000000-0000-4000-8000-000000000001/e0000000-0000-4000-8000-000000000003/formulas-basicas.mp4',
   33070, 'video/mp4'),
  ('lesson-materials',
   '5c000000-0000-4000-8000-000000000001/c0000000-0000-4000-8000-000000000001/e0000000-0000-4000-8000-000000000003/apostila-formulas.pdf',
   1023, 'application/pdf')
) as o (bucket, name, size, mime);

-- ── Student-webhook secrets of the demo schools (fixed, local only; README and npm start list them) ──
update private.school_webhook_secrets set secret = 'whsec_escola_demo_local_0123456789abcdef'
 where school_id = '5c000000-0000-4000-8000-000000000001';
update private.school_webhook_secrets set secret = 'whsec_academia_rival_local_0123456789abcdef'
 where school_id = '5c000000-0000-4000-8000-000000000002';

-- ── Analytics demo (issue 25): the fourteen students above, over the last weeks ───────────────
-- Every seeded profile is as old as its account (the trigger wrote them now, which made every demo
-- account "new today" on the dashboard; touch_timestamps keeps created_at, so it is off for this update).
alter table public.profiles disable trigger profiles_touch;
update public.profiles p set created_at = u.created_at
  from auth.users u where u.id = p.id and p.id::text like 'a0000000-0000-4000-8000-%';
alter table public.profiles enable trigger profiles_touch;

-- Excel Essencial, sold on its external page: enrolled by the student webhook two hours after joining.
insert into public.enrollments (id, user_id, course_id, status, created_at)
select ('0e000000-0000-4000-8000-0000000000' || right(p.id::text, 2))::uuid, p.id, 'c0000000-0000-4000-8000-000000000001',
       'ACTIVE', p.created_at + interval '2 hours'
  from public.profiles p where p.id::text between 'a0000000-0000-4000-8000-000000000031' and 'a0000000-0000-4000-8000-000000000044';

-- Marketing Digital, sold by the platform's checkout over the last month: paid (PIX, card, boleto),
-- one refunded (its enrollment paused), one boleto still open. No coupon.
insert into public.payments (school_id, user_id, course_id, course_title, environment, integration_id, billing_type,
                             installment_count, value, status, paid_at, refunded_at, created_at, updated_at)
select '5c000000-0000-4000-8000-000000000001', x.user_id::uuid, 'c0000000-0000-4000-8000-000000000002',
       'Marketing Digital para Pequenos Negócios', 'sandbox', 'ee000000-0000-4000-8000-000000000001', x.method,
       x.installments, 297.00, x.status,
       case when x.status in ('RECEIVED', 'CONFIRMED', 'REFUNDED') then now() - x.age end,
       case when x.status = 'REFUNDED' then now() - x.age + interval '5 days' end,
       now() - x.age - interval '10 minutes', now() - x.age
from (values
  ('a0000000-0000-4000-8000-000000000031', 'PIX', 1, 'RECEIVED', interval '28 days 2 hours'),
  ('a0000000-0000-4000-8000-000000000032', 'CREDIT_CARD', 3, 'CONFIRMED', interval '24 days 5 hours'),
  ('a0000000-0000-4000-8000-000000000034', 'CREDIT_CARD', 1, 'REFUNDED', interval '20 days 1 hour'),
  ('a0000000-0000-4000-8000-000000000035', 'PIX', 1, 'RECEIVED', interval '15 days 3 hours'),
  ('a0000000-0000-4000-8000-000000000037', 'BOLETO', 1, 'RECEIVED', interval '11 days 6 hours'),
  ('a0000000-0000-4000-8000-000000000039', 'PIX', 1, 'RECEIVED', interval '7 days 2 hours'),
  ('a0000000-0000-4000-8000-000000000040', 'CREDIT_CARD', 6, 'CONFIRMED', interval '3 days 4 hours'),
  ('a0000000-0000-4000-8000-000000000041', 'PIX', 1, 'RECEIVED', interval '1 day 2 hours'),
  ('a0000000-0000-4000-8000-000000000043', 'BOLETO', 1, 'PENDING', interval '2 days 1 hour')
) as x (user_id, method, installments, status, age);
insert into public.payment_items (payment_id, school_id, kind, course_id, title, list_price, value)
select p.id, p.school_id, 'course', p.course_id, p.course_title, 297.00, 297.00
  from public.payments p where p.user_id::text between 'a0000000-0000-4000-8000-000000000031' and 'a0000000-0000-4000-8000-000000000044';
insert into public.enrollments (id, user_id, course_id, status, created_at)
select ('0e000000-0000-4000-8000-0000000001' || right(p.user_id::text, 2))::uuid, p.user_id, p.course_id,
       case when p.status = 'REFUNDED' then 'PAUSED' else 'ACTIVE' end, p.paid_at + interval '1 minute'
  from public.payments p
 where p.user_id::text between 'a0000000-0000-4000-8000-000000000031' and 'a0000000-0000-4000-8000-000000000044' and p.paid_at is not null;

-- Notas fiscais (issue 42): Escola Demo's fiscal registration is complete at the fake Asaas, so its switch is
-- on, issuing 7 days after each payment with the municipal service of online courses; Academia Rival's is off.
-- Turned on after the sales above (as a school that starts issuing today): those were made before and are
-- not invoiced (the fake Asaas never had their charges); every sale from now on is.
insert into public.school_invoice_settings (school_id, enabled, enabled_at, issue_on, guarantee_days, municipal_service_id,
                                           municipal_service_code, municipal_service_name, description_template, iss_rate) values
  ('5c000000-0000-4000-8000-000000000001', true, now(), 'guarantee', 7, '07285', '08.02',
   'Cursos livres, cursos on-line e treinamentos à distância',
   'Acesso ao curso online {curso}, adquirido por {comprador} em {data_pagamento}.', 2);

-- Excel's lessons in course order, about three days apart, the last one studied in the last few days
-- (never before the enrollment): the first `done` completed, the next one started at `part` of its
-- video; fewer students get further. max_position_sec follows last_position_sec (the database keeps
-- the furthest).
insert into public.progress (user_id, lesson_id, completed_at, last_position_sec, created_at, updated_at)
select s.user_id::uuid, l.id, case when l.n <= s.done then t.at end,
       case when l.n <= s.done then l.duration_sec else round(l.duration_sec * s.part)::integer end,
       t.at - interval '15 minutes', t.at
from (values
  ('a0000000-0000-4000-8000-000000000031', 6, 0.0), ('a0000000-0000-4000-8000-000000000032', 6, null),
  ('a0000000-0000-4000-8000-000000000033', 4, 0.0), ('a0000000-0000-4000-8000-000000000034', 3, 0.5),
  ('a0000000-0000-4000-8000-000000000035', 3, null), ('a0000000-0000-4000-8000-000000000036', 2, 0.4),
  ('a0000000-0000-4000-8000-000000000037', 2, 0.9), ('a0000000-0000-4000-8000-000000000038', 1, 0.3),
  ('a0000000-0000-4000-8000-000000000039', 1, null), ('a0000000-0000-4000-8000-000000000040', 1, 0.8),
  ('a0000000-0000-4000-8000-000000000041', 0, 0.2), ('a0000000-0000-4000-8000-000000000042', 0, 0.6)
) as s (user_id, done, part)
join public.enrollments e on e.user_id = s.user_id::uuid and e.course_id = 'c0000000-0000-4000-8000-000000000001'
cross join (select l.id, l.duration_sec, row_number() over (order by m.order_index, l.order_index) as n
              from public.lessons l join public.modules m on m.id = l.module_id
             where l.course_id = 'c0000000-0000-4000-8000-000000000001') l
cross join lateral (select greatest(e.created_at + l.n * interval '1 hour',
                                    now() - ((s.done + 1 - l.n) * 3 + right(s.user_id, 1)::integer % 3) * interval '1 day'
                                          - (right(s.user_id, 2)::integer % 9 + 1) * interval '1 hour') as at) t
where l.n <= s.done or (l.n = s.done + 1 and s.part is not null);

-- Two of them went back to the start of the first video: the furthest point stays (and today is a day
-- they studied).
update public.progress set last_position_sec = 40
 where lesson_id = 'e0000000-0000-4000-8000-000000000001'
   and user_id in ('a0000000-0000-4000-8000-000000000031', 'a0000000-0000-4000-8000-000000000034');

insert into public.lesson_ratings (user_id, lesson_id, rating) values
  ('a0000000-0000-4000-8000-000000000031', 'e0000000-0000-4000-8000-000000000001', 5),
  ('a0000000-0000-4000-8000-000000000032', 'e0000000-0000-4000-8000-000000000001', 4),
  ('a0000000-0000-4000-8000-000000000032', 'e0000000-0000-4000-8000-000000000002', 5),
  ('a0000000-0000-4000-8000-000000000033', 'e0000000-0000-4000-8000-000000000001', 5),
  ('a0000000-0000-4000-8000-000000000034', 'e0000000-0000-4000-8000-000000000004', 3),
  ('a0000000-0000-4000-8000-000000000035', 'e0000000-0000-4000-8000-000000000002', 4);

-- Sign-ins: every third day since joining (the activity record, as the sign-in trigger writes it),
-- the last one a few days ago at most.
insert into private.student_activity (school_id, day, user_id)
select p.school_id, ((p.created_at + d * interval '1 day') at time zone 'America/Sao_Paulo')::date, p.id
  from public.profiles p
  cross join lateral generate_series(0, extract(day from now() - p.created_at)::integer, 3) d
 where p.id::text between 'a0000000-0000-4000-8000-000000000031' and 'a0000000-0000-4000-8000-000000000044'
on conflict do nothing;
update auth.users u set last_sign_in_at = now() - (right(u.id::text, 1)::integer % 4) * interval '1 day' - interval '2 hours'
 where u.id::text between 'a0000000-0000-4000-8000-000000000031' and 'a0000000-0000-4000-8000-000000000044';

-- ── Discussions and the ranking (issue 45): so `npm start` shows them ──────────────────────────
-- Escola Demo has the monthly ranking on. Under two lessons of Excel Essencial: Beatriz's question with
-- the instructor's answer, marked as the answer, and a classmate's reply; Daniela's question answered
-- by Eduardo, whose reply the staff marked as the answer today (points in this month's ranking);
-- Fernanda's question still unanswered (Comentários › Sem resposta). The triggers copy the authors'
-- names, give the instructor's reply its badge, notify the authors of the questions and count the
-- marked answers in the ranking.
insert into public.school_discussion_settings (school_id, ranking_enabled) values ('5c000000-0000-4000-8000-000000000001', true);

insert into public.lesson_comments (id, user_id, lesson_id, parent_id, comment, created_at, marked_answer_at) values
  ('cc000000-0000-4000-8000-000000000011', 'a0000000-0000-4000-8000-000000000031', 'e0000000-0000-4000-8000-000000000002', null,
   'Minha faixa de opções sumiu depois que cliquei duas vezes numa guia. Como faço para ela voltar?', now() - interval '5 days', null),
  ('cc000000-0000-4000-8000-000000000012', 'a0000000-0000-4000-8000-000000000003', 'e0000000-0000-4000-8000-000000000002',
   'cc000000-0000-4000-8000-000000000011',
   'Oi, Beatriz! O clique duplo numa guia recolhe a faixa de opções. Clique duas vezes de novo em qualquer guia (ou use Ctrl+F1) e ela volta a ficar fixa.',
   now() - interval '5 days' + interval '3 hours', now() - interval '4 days'),
  ('cc000000-0000-4000-8000-000000000013', 'a0000000-0000-4000-8000-000000000032', 'e0000000-0000-4000-8000-000000000002',
   'cc000000-0000-4000-8000-000000000011', 'Aconteceu comigo também, o Ctrl+F1 resolveu.', now() - interval '4 days', null),
  ('cc000000-0000-4000-8000-000000000014', 'a0000000-0000-4000-8000-000000000033', 'e0000000-0000-4000-8000-000000000006', null,
   'Atualizei a planilha de vendas, mas a tabela dinâmica continua com os números antigos. O que falta?', now() - interval '3 days', null),
  ('cc000000-0000-4000-8000-000000000015', 'a0000000-0000-4000-8000-000000000034', 'e0000000-0000-4000-8000-000000000006',
   'cc000000-0000-4000-8000-000000000014',
   'Falta atualizar a tabela: clique nela com o botão direito e escolha Atualizar. Se você acrescentou linhas, confira também o intervalo da fonte de dados.',
   now() - interval '2 days', now()),
  ('cc000000-0000-4000-8000-000000000016', 'a0000000-0000-4000-8000-000000000035', 'e0000000-0000-4000-8000-000000000002', null,
   'Dá para usar o Excel Online neste curso ou preciso da versão instalada?', now() - interval '6 hours', null);

-- ── Turmas (issue 40): Excel Essencial's classes, so `npm start` shows them ───────────────────
-- "Turma de <mês>" in progress since three weeks ago, with no end and no seat limit, the demo student
-- (and three of the analytics students) in it, and its own date for module 3 ("Gráficos e relatórios",
-- two weeks after the start: already open); the next one starts on the 10th of next month, with 30 seats,
-- enrollments open until its start and a waiting list. The checkout sells the first (earlier start,
-- window open, seats left). Ids 7a000000-….
with months (name, n) as (
  select * from unnest(array['janeiro', 'fevereiro', 'março', 'abril', 'maio', 'junho', 'julho', 'agosto', 'setembro',
                             'outubro', 'novembro', 'dezembro']) with ordinality as m(name, n)
), days as (
  select (now() at time zone 'America/Sao_Paulo')::date - 21 as current_start,
         (date_trunc('month', now() at time zone 'America/Sao_Paulo') + interval '1 month')::date + 9 as next_start
)
insert into public.turmas (id, course_id, name, starts_on, ends_on, enroll_from, enroll_until, seats, waitlist_enabled, created_at)
select '7a000000-0000-4000-8000-000000000001'::uuid, 'c0000000-0000-4000-8000-000000000001'::uuid,
       'Turma de ' || (select name from months where n = extract(month from d.current_start)),
       d.current_start, null::date, null::timestamptz, null::timestamptz, null::integer, false, now() - interval '35 days'
  from days d
union all
select '7a000000-0000-4000-8000-000000000002'::uuid, 'c0000000-0000-4000-8000-000000000001'::uuid,
       'Turma de ' || (select name from months where n = extract(month from d.next_start)),
       d.next_start, d.next_start + 90, now() - interval '2 days', d.next_start::timestamp at time zone 'America/Sao_Paulo',
       30, true, now() - interval '2 days'
  from days d;

insert into public.turma_module_dates (turma_id, module_id, opens_on)
select '7a000000-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000003', t.starts_on + 14
  from public.turmas t where t.id = '7a000000-0000-4000-8000-000000000001';

update public.enrollments set turma_id = '7a000000-0000-4000-8000-000000000001'
 where course_id = 'c0000000-0000-4000-8000-000000000001'
   and user_id in ('a0000000-0000-4000-8000-000000000011', 'a0000000-0000-4000-8000-000000000031',
                   'a0000000-0000-4000-8000-000000000032', 'a0000000-0000-4000-8000-000000000033');

-- Afiliados e coprodução (issue 43, docs/affiliates.md): Marketing Digital has the program on (30% of the
-- amount paid, 60-day window, manual approval, materials), one approved affiliate (aluno, code "aluno001",
-- with a wallet the fake Asaas knows) and a co-producer with 10% of every sale. The link:
-- /escola-demo/c/marketing-digital?afiliado=aluno001.
insert into public.affiliate_programs (course_id, school_id, enabled, commission_percent, cookie_days, approval, materials_text, materials_links)
values ('c0000000-0000-4000-8000-000000000002', '5c000000-0000-4000-8000-000000000001', true, 30, 60, 'manual',
        'Divulgue o curso com o seu link. Use as imagens e textos abaixo; não prometa resultados financeiros.',
        '[{"kind": "link", "title": "Página do curso", "url": "https://exemplo.com.br/marketing-digital"}]');
insert into public.course_coproducers (id, course_id, school_id, name, wallet_id, percent)
values ('af000000-0000-4000-8000-000000000101', 'c0000000-0000-4000-8000-000000000002', '5c000000-0000-4000-8000-000000000001',
        'Ana Coprodutora', '48548710-9baa-4ec1-a11f-9010193527c6', 10);
insert into public.affiliates (id, school_id, user_id, code, status, wallet_id, wallet_validated_at, decided_at, decided_by)
values ('af000000-0000-4000-8000-000000000001', '5c000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000011',
        'aluno001', 'approved', '0b763922-aa88-4cbe-a567-e3fe8511fa06', now(), now(), 'a0000000-0000-4000-8000-000000000002');
