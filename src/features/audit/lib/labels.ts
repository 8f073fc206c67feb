// Registro de atividades in pt-BR: the kinds of object (the audited tables), the actions, the sources,
// the fields and their values. A table or field without a label shows its own name (a new audited
// table is readable before it gets one).
import { formatDateTime, formatMoney } from '@/utils/format';
import type { AuditAction, AuditEntry, AuditSource } from '../api/queries';

/** The audited tables (supabase/migrations/20261128012000_audit_log.sql), in the filter's order. */
export const TABLE_LABEL: Record<string, string> = {
  courses: 'Curso',
  modules: 'Módulo',
  lessons: 'Aula',
  lesson_contents: 'Conteúdo da aula',
  materials: 'Material',
  announcements: 'Anúncio',
  coupons: 'Cupom',
  coupon_courses: 'Cursos do cupom',
  plans: 'Plano',
  plan_courses: 'Cursos do plano',
  course_bumps: 'Leve também',
  turmas: 'Turma',
  turma_module_dates: 'Datas da turma',
  enrollments: 'Matrícula',
  profiles: 'Aluno ou conta',
  email_outbox: 'E-mail de acesso',
  payments: 'Pagamento',
  schools: 'Escola',
  school_email_settings: 'Configurações de e-mail',
  school_discussion_settings: 'Configurações de comentários',
  school_video_settings: 'Configurações de vídeo',
  school_recovery_settings: 'Recuperação de vendas',
  integration_settings: 'Integração',
  integration_secrets: 'Chaves da integração',
  school_webhook_secrets: 'Segredo do webhook',
  user_roles: 'Papel',
  system_config: 'Configuração da plataforma',
  system_secrets: 'Chave da plataforma',
  lesson_comment_moderation: 'Moderação de comentário',
  lesson_comments: 'Comentário',
  audit_retention: 'Retenção do registro',
};

export const ACTION_LABEL: Record<AuditAction, string> = { insert: 'Criou', update: 'Alterou', delete: 'Excluiu' };

export const SOURCE_LABEL: Record<AuditSource, string> = {
  api: 'Painel',
  function: 'Painel (função)',
  webhook: 'Webhook',
  payment: 'Evento de pagamento',
  service: 'Serviço',
  system: 'Sistema',
};

export const ROLE_LABEL: Record<string, string> = {
  SUPER_ADMIN: 'Super admin',
  SCHOOL_ADMIN: 'Administrador',
  INSTRUCTOR: 'Instrutor',
  STAFF: 'Equipe',
};

const FIELD_LABEL: Record<string, string> = {
  title: 'Título',
  name: 'Nome',
  description: 'Descrição',
  price: 'Preço',
  status: 'Situação',
  slug: 'Endereço (slug)',
  is_active: 'Ativo',
  is_preview: 'Aula gratuita',
  must_change_password: 'Trocar senha no próximo acesso',
  code: 'Código',
  amount: 'Valor do desconto',
  kind: 'Tipo',
  valid_from: 'Válido de',
  valid_until: 'Válido até',
  max_uses: 'Limite de usos',
  seats: 'Vagas',
  starts_on: 'Início',
  ends_on: 'Fim',
  expires_at: 'Expira em',
  role: 'Papel',
  content: 'Conteúdo',
  video_url: 'Vídeo',
  url: 'Link',
  order_index: 'Ordem',
  secret: 'Segredo',
  api_key: 'Chave de API',
  webhook_token: 'Token do webhook',
  value: 'Valor',
  refund_requested_at: 'Reembolso pedido em',
  refund_reason: 'Motivo do reembolso',
  refunded_at: 'Reembolsado em',
  hidden_reason: 'Motivo',
  days: 'Dias',
  phone: 'Telefone',
  cpf: 'CPF',
  address: 'Endereço',
  primary_color: 'Cor principal',
  logo_url: 'Logo',
  banner_url: 'Banner',
  login_banner_url: 'Banner do login',
  thumbnail_url: 'Capa',
  image_url: 'Imagem',
  is_published: 'Publicado',
  max_installments: 'Máximo de parcelas',
  certificate_enabled: 'Certificado',
  user_id: 'Conta',
  course_id: 'Curso',
  turma_id: 'Turma',
  hidden_by: 'Ocultado por',
  hidden_at: 'Ocultado em',
  comment: 'Comentário',
  member_area_name: 'Nome da área de membros',
  require_staff_mfa: 'Verificação em duas etapas obrigatória',
  secondary_color: 'Cor secundária',
};

const MONEY_FIELDS = new Set(['price', 'value', 'discount']);
const SECRET = '(secret)';
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

export const tableLabel = (table: string) => TABLE_LABEL[table] ?? table;
export const fieldLabel = (field: string) => FIELD_LABEL[field] ?? field;

/** A field's value as a person reads it; a secret says only that it changed. */
export function valueText(field: string, value: unknown): string {
  if (value === SECRET) return 'alterado (valor oculto)';
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Sim' : 'Não';
  if (typeof value === 'number' && MONEY_FIELDS.has(field)) return formatMoney(value);
  if (typeof value === 'string' && ISO_TIME.test(value)) return formatDateTime(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Who did it: the person's name, or the source when no person acted (a payment event, a webhook). */
export function whoText(e: Pick<AuditEntry, 'actor_id' | 'actor_name' | 'actor_email' | 'source'>): string {
  if (e.actor_id) return e.actor_name || e.actor_email || 'Conta removida';
  return SOURCE_LABEL[e.source];
}

/** What changed: the object's kind and its name, e.g. 'Curso "Excel Essencial"'. */
export function whatText(e: Pick<AuditEntry, 'table_name' | 'row_label'>): string {
  return e.row_label ? `${tableLabel(e.table_name)} "${e.row_label}"` : tableLabel(e.table_name);
}

/** The fields of a change, before and after side by side (the union of both sides, in their order). */
export function changedFields(
  e: Pick<AuditEntry, 'before' | 'after'>,
): { field: string; before: unknown; after: unknown }[] {
  const fields = [...new Set([...Object.keys(e.before ?? {}), ...Object.keys(e.after ?? {})])];
  return fields.map((field) => ({ field, before: e.before?.[field], after: e.after?.[field] }));
}

/** One line for the table: the changed fields of an update ('Preço: R$ 97,00 → R$ 120,00'), nothing for an insert or a delete. */
export function summaryText(e: AuditEntry): string {
  if (e.action !== 'update') return '';
  return changedFields(e)
    .map((c) => `${fieldLabel(c.field)}: ${valueText(c.field, c.before)} → ${valueText(c.field, c.after)}`)
    .join('; ');
}
