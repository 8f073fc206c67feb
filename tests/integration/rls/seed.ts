// The fixed ids and accounts of supabase/seed.sql, for readable RLS tests.
export const SCHOOL = {
  demo: '5c000000-0000-4000-8000-000000000001',
  rival: '5c000000-0000-4000-8000-000000000002',
} as const;

export const USER = {
  super: 'a0000000-0000-4000-8000-000000000001',
  adminDemo: 'a0000000-0000-4000-8000-000000000002',
  instrutor: 'a0000000-0000-4000-8000-000000000003',
  adminRival: 'a0000000-0000-4000-8000-000000000004',
  aluno: 'a0000000-0000-4000-8000-000000000011',
  aluna: 'a0000000-0000-4000-8000-000000000012',
  pausado: 'a0000000-0000-4000-8000-000000000013',
  expirado: 'a0000000-0000-4000-8000-000000000014',
  inativo: 'a0000000-0000-4000-8000-000000000015',
  novo: 'a0000000-0000-4000-8000-000000000016',
  alunoRival: 'a0000000-0000-4000-8000-000000000021',
} as const;

export const EMAIL = {
  super: 'super@plataforma.com.br',
  adminDemo: 'admin@escola-demo.com.br',
  instrutor: 'instrutor@escola-demo.com.br',
  adminRival: 'admin@academia-rival.com.br',
  aluno: 'aluno@escola-demo.com.br',
  aluna: 'aluna@escola-demo.com.br',
  pausado: 'pausado@escola-demo.com.br',
  expirado: 'expirado@escola-demo.com.br',
  inativo: 'inativo@escola-demo.com.br',
  novo: 'novo@escola-demo.com.br',
  alunoRival: 'aluno@academia-rival.com.br',
} as const;

export const COURSE = {
  excel: 'c0000000-0000-4000-8000-000000000001', // PUBLISHED; aluno ACTIVE, pausado PAUSED, expirado expired
  marketing: 'c0000000-0000-4000-8000-000000000002', // PUBLISHED, nobody enrolled, lesson 7 is_preview
  draft: 'c0000000-0000-4000-8000-000000000003', // DRAFT
  archived: 'c0000000-0000-4000-8000-000000000004', // ARCHIVED
  rival: 'c0000000-0000-4000-8000-000000000021', // Academia Rival, PUBLISHED, alunoRival ACTIVE
} as const;

export const MODULE = {
  excel1: 'd0000000-0000-4000-8000-000000000001',
  excel2: 'd0000000-0000-4000-8000-000000000002',
  excel3: 'd0000000-0000-4000-8000-000000000003',
  marketing1: 'd0000000-0000-4000-8000-000000000004',
  draft1: 'd0000000-0000-4000-8000-000000000006',
  rival1: 'd0000000-0000-4000-8000-000000000021',
} as const;

export const LESSON = {
  excelPreview: 'e0000000-0000-4000-8000-000000000001', // youtube, is_preview
  excelVimeo: 'e0000000-0000-4000-8000-000000000002',
  excelUpload: 'e0000000-0000-4000-8000-000000000003', // video + PDF in storage
  excelProcv: 'e0000000-0000-4000-8000-000000000004',
  excelText: 'e0000000-0000-4000-8000-000000000005', // video_type none
  excelPivot: 'e0000000-0000-4000-8000-000000000006',
  excelQuiz: 'e0000000-0000-4000-8000-000000000011', // "Avaliação final": quiz only (QUIZ.excel), last of module 3
  marketingPreview: 'e0000000-0000-4000-8000-000000000007',
  marketingPaid: 'e0000000-0000-4000-8000-000000000008',
  draft: 'e0000000-0000-4000-8000-000000000010',
  rivalPreview: 'e0000000-0000-4000-8000-000000000021',
  rivalPaid: 'e0000000-0000-4000-8000-000000000022',
} as const;

/** Issue 23: the published quiz of Excel Essencial (5 questions, pass mark 70, 3 attempts, 1 hour apart); nobody has attempted it. */
export const QUIZ = {
  excel: '9a000000-0000-4000-8000-000000000001',
  excelVersion: '9c000000-0000-4000-8000-000000000001',
} as const;

/** Issue 24: BEMVINDO20 (20% off every Escola Demo course, no limits) and Plano Completo (R$ 49,90 a month, every
 * published course, every method); Marketing's order bump offers Excel Essencial for R$ 97,00. Nobody used or subscribed. */
export const COUPON = {
  bemvindo20: 'cb000000-0000-4000-8000-000000000001',
} as const;
export const PLAN = {
  completo: 'ab000000-0000-4000-8000-000000000001',
} as const;

export const MATERIAL = {
  excelPdf: 'f0000000-0000-4000-8000-000000000001', // lesson excelUpload, file in lesson-materials
  excelLink: 'f0000000-0000-4000-8000-000000000002', // lesson excelProcv
  excelCourseWide: 'f0000000-0000-4000-8000-000000000003', // no lesson
  marketingPreview: 'f0000000-0000-4000-8000-000000000004',
  rival: 'f0000000-0000-4000-8000-000000000021',
} as const;

export const ENROLLMENT = {
  aluno: '0e000000-0000-4000-8000-000000000001',
  pausado: '0e000000-0000-4000-8000-000000000002',
  expirado: '0e000000-0000-4000-8000-000000000003',
  inativo: '0e000000-0000-4000-8000-000000000004',
  alunoRival: '0e000000-0000-4000-8000-000000000021',
} as const;

/** Issue 40: Excel Essencial's turmas (supabase/seed.sql). */
export const TURMA = {
  excelCurrent: '7a000000-0000-4000-8000-000000000001', // started 21 days ago, no end, no seat limit; aluno in it; module 3 dated
  excelNext: '7a000000-0000-4000-8000-000000000002', // starts on the 10th of next month, 30 seats, waiting list
} as const;

export const COMMENT = {
  alunoPreview: 'cc000000-0000-4000-8000-000000000001',
  instrutorPreview: 'cc000000-0000-4000-8000-000000000002',
  alunoUpload: 'cc000000-0000-4000-8000-000000000003',
  rival: 'cc000000-0000-4000-8000-000000000021',
} as const;

export const ANNOUNCEMENT = {
  demoHigh: 'aa000000-0000-4000-8000-000000000001',
  demoCourse: 'aa000000-0000-4000-8000-000000000002',
  demoInactive: 'aa000000-0000-4000-8000-000000000003',
  rival: 'aa000000-0000-4000-8000-000000000021',
} as const;

export const INTEGRATION = {
  demo: 'ee000000-0000-4000-8000-000000000001',
  rival: 'ee000000-0000-4000-8000-000000000021',
} as const;

/** Secret values of the seed: no browser role may ever see them. */
export const SECRETS = ['$aact_SEGREDO_escola_demo', '$aact_SEGREDO_academia_rival', '$aact_SEGREDO_sistema_key'];

/** Storage objects of the seed (bytes in supabase/seed-files/<bucket>/<name>). */
export const OBJECT = {
  lessonVideo: `${SCHOOL.demo}/${COURSE.excel}/${LESSON.excelUpload}/formulas-basicas.mp4`,
  lessonPdf: `${SCHOOL.demo}/${COURSE.excel}/${LESSON.excelUpload}/apostila-formulas.pdf`,
  demoBanner: `${SCHOOL.demo}/banner.jpg`,
  excelThumb: `${SCHOOL.demo}/excel-essencial.jpg`,
} as const;

/** The login-page columns anon may read on schools. */
export const SCHOOL_LOGIN_COLUMNS =
  'id, slug, name, member_area_name, logo_url, login_banner_url, login_banner_position, primary_color, secondary_color, support_whatsapp';
