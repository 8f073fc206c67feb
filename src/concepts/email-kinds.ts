// The school's e-mails to students (issue 22), as the screens name them: Settings → E-mails, the
// student card's log and the profile's preferences. The kinds are public.email_outbox's check.
export const EMAIL_KIND_LABELS = {
  access_granted: 'Acesso liberado',
  new_enrollment: 'Nova matrícula',
  content_released: 'Conteúdo liberado',
  we_miss_you: 'Sentimos sua falta',
  certificate_available: 'Certificado disponível',
  turma_starts_tomorrow: 'Sua turma começa amanhã',
  payment_pending: 'Pagamento pendente',
  payment_reminder: 'Lembrete de boleto',
  payment_confirmed: 'Pagamento confirmado',
  payment_refunded: 'Pagamento estornado',
  checkout_recovery: 'Recuperação de vendas',
  pix_expiring: 'Seu PIX expira em 1 hora',
  turma_waitlist_open: 'Vaga na lista de espera',
  announcement: 'Comunicados da turma',
  invoice_available: 'Nota fiscal disponível',
} as const;
export type EmailKind = keyof typeof EMAIL_KIND_LABELS;
