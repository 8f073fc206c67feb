// The registry of cache roots: the first element of every query key in the SPA. Each feature builds
// its key factory under its own root (api/hooks.ts); a write that changes another feature's data
// invalidates that feature's root from here (`rootKeys.dashboard`), never with a literal array, so a
// renamed key cannot silently stop a refresh.
export const rootKeys = {
  /** The student's catalog and course detail (features/courses, api/hooks.ts). */
  courses: ['courses'],
  /** The staff's course list and forms (features/courses, admin). */
  adminCourses: ['admin-courses'],
  courseContent: ['course-content'],
  /** Whether lesson videos go to the video host or to Storage: the platform's setting (features/course-content). */
  videoHost: ['video-host'],
  lessons: ['lessons'],
  /** A lesson's discussion and the staff's comment moderation (features/discussions). */
  discussions: ['discussions'],
  materials: ['materials'],
  dashboard: ['dashboard'],
  enrollments: ['enrollments'],
  /** Turmas: a course's classes, their calendar and students (features/turmas, src/concepts/turmas.ts; issue 40). */
  turmas: ['turmas'],
  students: ['students'],
  clients: ['clients'],
  announcements: ['announcements'],
  adminAnnouncements: ['admin-announcements'],
  reports: ['reports'],
  certificates: ['certificates'],
  checkout: ['checkout'],
  /** Cupons: the staff's coupons with their numbers (features/coupons). */
  coupons: ['coupons'],
  /** Planos: the staff's plans and subscribers, and the home's "Assine" offers (features/plans). */
  plans: ['plans'],
  /** Minha assinatura: the student's own subscriptions and their invoices (features/profile). */
  subscriptions: ['subscriptions'],
  payments: ['payments'],
  /** Vendas: the staff's sales, their totals and refunds (features/sales). */
  sales: ['sales'],
  /** Recuperação: abandoned checkouts, their numbers and the school's Recuperação de vendas setting (features/recovery, issue 41). */
  recovery: ['recovery'],
  /** Notas fiscais: the school's setting and fiscal check, Vendas' invoices, the student's Minhas compras (features/invoices, issue 42). */
  invoices: ['invoices'],
  /** Afiliados: the affiliate's own panel and the staff's lists (features/affiliates, issue 43). */
  affiliates: ['affiliates'],
  /** Registro de atividades: the audit log and its people (features/audit, issue 44). */
  audit: ['audit'],
  schools: ['schools'],
  settings: ['settings'],
  mfa: ['mfa'],
  /** Settings → E-mails and the student's e-mail preferences (features/email-preferences). */
  emailSettings: ['email-settings'],
  /** Avaliações: the staff's quiz editor and results (features/quizzes, admin). */
  adminQuizzes: ['admin-quizzes'],
  /** Avaliações: the student's quiz and the quiz states of their lessons (features/quizzes, src/concepts/quiz-state.ts). */
  quizzes: ['quizzes'],
  /** A school's playback settings: Telas simultâneas and the sharing report's limits (src/concepts/video-settings.ts). */
  videoSettings: ['video-settings'],
  /** Compartilhamento suspeito: accounts seen on too many devices or networks (features/shared-logins, issue 39). */
  sharedLogins: ['shared-logins'],
  /** Ranking: the school's month ranking and the student's opt-out (features/ranking, issue 26). */
  ranking: ['ranking'],
  session: ['session'],
} as const satisfies Record<string, readonly [string]>;
