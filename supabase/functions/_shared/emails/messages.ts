// The school's e-mails to its students (issue 22), in pt-BR: what each kind says, from the payload its
// event stored in public.email_outbox (never a password: the access e-mail's link to choose one is made
// at send time and passed in `links`).
import { type EmailContent, renderEmail, type RenderedEmail, type SchoolBrand } from './layout.ts';

export const EMAIL_KINDS = [
  'access_granted', 'new_enrollment', 'payment_pending', 'payment_reminder', 'payment_confirmed',
  'payment_refunded', 'content_released', 'we_miss_you', 'certificate_available',
] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

/** Access and payment messages always go; the others the school may turn off, and the student too. */
export const OPTIONAL_KINDS: readonly EmailKind[] = ['new_enrollment', 'content_released', 'we_miss_you', 'certificate_available'];

export interface EmailLinks {
  /** The school's login page (`<site>/<slug>`). */
  login: string;
  /** A course page, by id. */
  course: (courseId: string) => string;
  /** The public verification page of a certificate, by code. */
  certificate: (code: string) => string;
  /** access_granted: the one-time link to choose a password. */
  setPassword?: string;
  /** Optional kinds: the one-click link that turns this kind off. */
  unsubscribe?: string;
}

type Payload = Record<string, unknown>;
const str = (p: Payload, key: string, fallback = '') => (typeof p[key] === 'string' ? (p[key] as string) : fallback);
const num = (p: Payload, key: string) => (typeof p[key] === 'number' ? (p[key] as number) : Number(p[key] ?? NaN));
const money = (v: number) => (Number.isFinite(v) ? new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(v) : '');
const date = (iso: string) => {
  const d = new Date(iso.length === 10 ? `${iso}T12:00:00-03:00` : iso);
  return Number.isNaN(d.getTime()) ? '' : new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeZone: 'America/Sao_Paulo' }).format(d);
};
const METHOD: Record<string, string> = { PIX: 'PIX', BOLETO: 'Boleto', CREDIT_CARD: 'Cartão de crédito' };
const hello = (p: Payload) => (str(p, 'name') ? `Olá, ${str(p, 'name').split(' ')[0]}!` : 'Olá!');
const list = (items: string[]) => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} e ${items.at(-1)}`);

function content(kind: EmailKind, p: Payload, school: string, links: EmailLinks): EmailContent {
  const course = str(p, 'course_title', 'seu curso');
  const courseUrl = str(p, 'course_id') ? links.course(str(p, 'course_id')) : links.login;
  switch (kind) {
    case 'access_granted': {
      const courses = Array.isArray(p.courses) ? (p.courses as unknown[]).filter((c): c is string => typeof c === 'string') : [];
      return {
        subject: `Seu acesso à ${school} foi liberado`,
        preheader: 'Crie sua senha e comece a estudar.',
        heading: 'Acesso liberado!',
        paragraphs: [
          hello(p),
          courses.length ? `Sua conta na área de membros da ${school} está pronta, com acesso a ${list(courses)}.` : `Sua conta na área de membros da ${school} está pronta.`,
          'Para entrar, crie a sua senha pelo botão abaixo. Depois, é só usar seu e-mail e essa senha na página da escola.',
        ],
        action: { label: 'Criar minha senha', url: links.setPassword ?? links.login },
        note: 'O link vale por 7 dias e funciona uma vez. Se ele expirar, peça um novo na página de login da escola, em "Esqueci minha senha".',
      };
    }
    case 'new_enrollment':
      return {
        subject: `Você foi matriculado em ${course}`,
        preheader: `O curso ${course} já está na sua área de membros.`,
        heading: 'Nova matrícula',
        paragraphs: [hello(p), `Você agora tem acesso ao curso ${course} na área de membros da ${school}.`],
        action: { label: 'Acessar o curso', url: courseUrl },
      };
    case 'payment_pending':
    case 'payment_reminder': {
      const boleto = str(p, 'method') === 'BOLETO';
      const reminder = kind === 'payment_reminder';
      return {
        subject: reminder ? `Seu boleto de ${course} vence amanhã` : `Pagamento pendente: ${course}`,
        preheader: boleto ? 'Pague o boleto para liberar o curso.' : 'Pague com o PIX para liberar o curso.',
        heading: reminder ? 'Seu boleto vence amanhã' : 'Pagamento pendente',
        paragraphs: [
          hello(p),
          boleto
            ? `Seu pedido do curso ${course} está aguardando o pagamento do boleto. O acesso é liberado assim que o banco confirmar o pagamento.`
            : `Seu pedido do curso ${course} está aguardando o pagamento pelo PIX. O acesso é liberado assim que o pagamento for confirmado.`,
        ],
        details: [
          ['Curso', course],
          ['Valor', money(num(p, 'amount'))],
          ...(boleto && str(p, 'due_date') ? ([['Vencimento', date(str(p, 'due_date'))]] as [string, string][]) : []),
        ],
        code: boleto
          ? str(p, 'boleto_line') ? { label: 'Linha digitável', value: str(p, 'boleto_line') } : undefined
          : str(p, 'pix_code') ? { label: 'PIX copia e cola', value: str(p, 'pix_code') } : undefined,
        // The boleto's PDF when there is one; else the invoice, which shows the PIX code or the boleto.
        action: boleto && str(p, 'boleto_url')
          ? { label: 'Baixar o boleto', url: str(p, 'boleto_url') }
          : str(p, 'invoice_url') ? { label: 'Ver a fatura', url: str(p, 'invoice_url') } : undefined,
      };
    }
    case 'payment_confirmed':
      return {
        subject: `Pagamento confirmado: ${course}`,
        preheader: 'Seu acesso ao curso está liberado.',
        heading: 'Pagamento confirmado',
        paragraphs: [hello(p), `Recebemos o seu pagamento e o curso ${course} já está liberado. Guarde este e-mail como comprovante.`],
        details: [
          ['Curso', course],
          ['Valor', money(num(p, 'amount'))],
          ['Forma de pagamento', METHOD[str(p, 'method')] ?? str(p, 'method')],
          ['Data', date(str(p, 'paid_at'))],
        ],
        action: { label: 'Acessar o curso', url: courseUrl },
      };
    case 'payment_refunded':
      return {
        subject: `Pagamento estornado: ${course}`,
        preheader: 'O acesso ao curso foi pausado.',
        heading: 'Pagamento estornado',
        paragraphs: [
          hello(p),
          `O pagamento do curso ${course} foi ${str(p, 'reason') === 'chargeback' ? 'contestado junto ao cartão' : 'estornado'} e o seu acesso ao curso foi pausado.`,
          'Se você não reconhece este estorno ou quer voltar a estudar, fale com a escola.',
        ],
        details: [['Curso', course], ['Valor', money(num(p, 'amount'))]],
      };
    case 'content_released': {
      const modules = Array.isArray(p.modules) ? (p.modules as Payload[]) : [];
      return {
        subject: modules.length > 1 ? 'Novos módulos liberados' : `Novo módulo liberado: ${str(modules[0] ?? {}, 'module_title', course)}`,
        preheader: 'Tem conteúdo novo esperando por você.',
        heading: 'Conteúdo liberado',
        paragraphs: [hello(p), 'Foram liberados hoje para você:'],
        details: modules.map((m) => [str(m, 'course_title'), str(m, 'module_title')] as [string, string]),
        action: { label: 'Ver o conteúdo', url: modules.length && str(modules[0]!, 'course_id') ? links.course(str(modules[0]!, 'course_id')) : links.login },
      };
    }
    case 'we_miss_you': {
      const percent = num(p, 'progress_percent');
      return {
        subject: `Sentimos sua falta${str(p, 'name') ? `, ${str(p, 'name').split(' ')[0]}` : ''}`,
        preheader: `Continue ${course} de onde parou.`,
        heading: 'Sentimos sua falta',
        paragraphs: [
          hello(p),
          Number.isFinite(percent) ? `Você já fez ${Math.round(percent)}% do curso ${course}. Que tal continuar de onde parou?` : `Que tal continuar o curso ${course} de onde parou?`,
        ],
        action: { label: 'Continuar o curso', url: courseUrl },
      };
    }
    case 'certificate_available':
      return {
        subject: `Seu certificado de ${course} está disponível`,
        preheader: 'Parabéns pela conclusão!',
        heading: 'Parabéns, você concluiu o curso!',
        paragraphs: [hello(p), `Seu certificado de conclusão do curso ${course} está disponível. Qualquer pessoa pode conferir a autenticidade dele pelo link abaixo.`],
        details: str(p, 'code') ? [['Código de verificação', str(p, 'code')]] : [],
        action: { label: 'Ver o certificado', url: str(p, 'code') ? links.certificate(str(p, 'code')) : courseUrl },
      };
  }
}

/** The e-mail of one outbox row. */
export function renderMessage(kind: EmailKind, payload: Payload, brand: SchoolBrand, links: EmailLinks): RenderedEmail {
  const unsubscribe = OPTIONAL_KINDS.includes(kind) ? (links.unsubscribe ?? null) : null;
  return renderEmail(brand, content(kind, payload, brand.name, links), unsubscribe);
}
