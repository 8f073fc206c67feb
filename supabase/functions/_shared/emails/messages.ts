// The school's e-mails to its students (issue 22), in pt-BR: what each kind says, from the payload its
// event stored in public.email_outbox (never a password: the access e-mail's link to choose one is made
// at send time and passed in `links`). Issue 46: each kind of purchase has its own words (a course, a
// course with its order bump, a plan), and nothing assumes the student's gender.
import { type EmailContent, renderEmail, type RenderedEmail, type SchoolBrand } from './layout.ts';

export const EMAIL_KINDS = [
  'access_granted', 'new_enrollment', 'payment_pending', 'payment_reminder', 'payment_confirmed',
  'payment_refunded', 'content_released', 'we_miss_you', 'certificate_available', 'turma_starts_tomorrow',
  'checkout_recovery', 'pix_expiring', 'invoice_available', 'turma_waitlist_open', 'announcement',
] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

/** Access and payment messages always go; the others the school may turn off, and the student too. */
export const OPTIONAL_KINDS: readonly EmailKind[] = [
  'new_enrollment', 'content_released', 'we_miss_you', 'certificate_available', 'checkout_recovery', 'turma_waitlist_open', 'announcement',
];

export interface EmailLinks {
  /** The school's login page (`<site>/<slug>`). */
  login: string;
  /** A course page, by id. */
  course: (courseId: string) => string;
  /** The public verification page of a certificate, by code. */
  certificate: (code: string) => string;
  /** access_granted: the one-time link to choose a password. */
  setPassword?: string;
  /** checkout_recovery: the reopen link of a checkout (`<site>/checkout/<course slug>?retomar=<session id>`, a plan's
   * `<site>/checkout/plano/<plan slug>?retomar=<session id>`). */
  checkout?: (slug: string, sessionId: string, offer?: 'course' | 'plan') => string;
  /** turma_waitlist_open: a course's checkout (`<site>/checkout/<course slug>`). */
  buy?: (courseSlug: string) => string;
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
const CYCLE: Record<string, string> = { MONTHLY: 'Mensal', YEARLY: 'Anual' };
// Words that assume no gender: "Olá, Mariana!", never "Bem-vindo" or "matriculado".
const hello = (p: Payload) => (str(p, 'name') ? `Olá, ${str(p, 'name').split(' ')[0]}!` : 'Olá!');
const list = (items: string[]) => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} e ${items.at(-1)}`);
/** "curso Excel", but "Curso de Excel" as it is (never "curso Curso de Excel"); the sentence adds the article. */
const courseNoun = (title: string) => (/^curso\b/i.test(title) ? title : `curso ${title}`);
/** "Plano Completo" as it is, "plano Premium" otherwise (never "plano Plano Completo"). */
const planNoun = (name: string) => (/^plano\b/i.test(name) ? name : `plano ${name}`);
/** "ao curso X" or "aos cursos X e Y". */
const toCourses = (titles: string[]) => (titles.length === 1 ? `ao ${courseNoun(titles[0]!)}` : `aos cursos ${list(titles)}`);

/**
 * What a payment bought, from its 'items' (payment_items: the course and its order bump, or a plan).
 * A message written before items were stored names one course by its 'course_title'.
 */
type Purchase =
  | { kind: 'course'; title: string }
  | { kind: 'bump'; title: string; courses: [string, string] }
  | { kind: 'plan'; title: string; cycle: string };

function purchaseOf(p: Payload): Purchase {
  const items = (Array.isArray(p.items) ? (p.items as Payload[]) : []).filter((i) => i && typeof i === 'object');
  const item = (kind: string) => items.find((i) => str(i, 'kind') === kind);
  const plan = item('plan');
  if (plan) return { kind: 'plan', title: str(plan, 'title'), cycle: CYCLE[str(p, 'plan_cycle')] ?? '' };
  const course = item('course');
  const bump = item('bump');
  if (course && bump) return { kind: 'bump', title: list([str(course, 'title'), str(bump, 'title')]), courses: [str(course, 'title'), str(bump, 'title')] };
  return { kind: 'course', title: course ? str(course, 'title') : str(p, 'course_title', 'seu curso') };
}

/** The detail line that names the purchase, and a plan's cycle. */
const purchaseDetails = (b: Purchase): [string, string][] =>
  b.kind === 'plan'
    ? [['Plano', b.title], ...(b.cycle ? ([['Assinatura', b.cycle]] as [string, string][]) : [])]
    : [[b.kind === 'bump' ? 'Cursos' : 'Curso', b.title]];

/** checkout_recovery of a plan's checkout (issue 41): the plan and its price per cycle; a plan has no coupon. */
function planRecovery(p: Payload, touch: number, links: EmailLinks, fallbackUrl: string): EmailContent {
  const plan = str(p, 'plan_name');
  const cycle = str(p, 'plan_cycle') === 'YEARLY' ? 'por ano' : 'por mês';
  const reopen = str(p, 'plan_slug') && str(p, 'session_id') && links.checkout ? links.checkout(str(p, 'plan_slug'), str(p, 'session_id'), 'plan') : fallbackUrl;
  return {
    subject: touch > 1 ? `Ainda dá tempo: ${plan}` : `Sua assinatura está esperando: ${plan}`,
    preheader: 'Sua assinatura ficou guardada do jeito que você deixou.',
    heading: 'Sua assinatura ficou guardada',
    paragraphs: [
      hello(p),
      `Você começou a assinatura do ${planNoun(plan)} e não terminou. Guardamos o seu pedido do jeito que você deixou.`,
      ...(str(p, 'stage') === 'pix' ? ['O PIX anterior expirou: ao voltar, você encontra a cobrança para pagar.'] : []),
    ],
    details: [
      ['Plano', plan],
      ['Valor', `${money(num(p, 'amount'))} ${cycle}`],
    ],
    action: { label: 'Retomar minha assinatura', url: reopen },
  };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };
/** An announcement's HTML as plain paragraphs (the layout escapes them): blocks and line breaks split it, tags go. */
export function htmlParagraphs(html: string): string[] {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|blockquote)>/gi, '\n')
    .replace(/<li[^>]*>/gi, '• ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#39|[a-z]+);/gi, (m, name: string) => ENTITIES[name.toLowerCase()] ?? m)
    .split(/\n+/)
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
}

function content(kind: EmailKind, p: Payload, school: string, links: EmailLinks): EmailContent {
  const course = str(p, 'course_title', 'seu curso');
  const courseUrl = str(p, 'course_id') ? links.course(str(p, 'course_id')) : links.login;
  switch (kind) {
    case 'access_granted': {
      const courses = Array.isArray(p.courses) ? (p.courses as unknown[]).filter((c): c is string => typeof c === 'string') : [];
      return {
        // The school's name without an article: "à Escola" but "ao Instituto".
        subject: `${school}: seu acesso foi liberado`,
        preheader: 'Crie sua senha e comece a estudar.',
        heading: 'Boas-vindas!',
        paragraphs: [
          hello(p),
          courses.length ? `Sua conta está pronta, com acesso ${toCourses(courses)}.` : 'Sua conta está pronta.',
          'Para entrar, crie a sua senha pelo botão abaixo. Depois, é só usar seu e-mail e essa senha na página da escola.',
        ],
        action: { label: 'Criar minha senha', url: links.setPassword ?? links.login },
        note: 'O link vale por 7 dias e funciona uma vez. Se ele expirar, peça um novo na página de login da escola, em "Esqueci minha senha".',
      };
    }
    case 'new_enrollment': {
      const plan = str(p, 'plan_name');
      return plan
        ? {
            subject: `Novo curso no seu ${planNoun(plan)}: ${course}`,
            preheader: `O ${courseNoun(course)} já está na sua área de membros.`,
            heading: 'Curso liberado no seu plano',
            paragraphs: [hello(p), `O ${courseNoun(course)} faz parte do seu ${planNoun(plan)} e já está na sua área de membros.`],
            action: { label: 'Acessar o curso', url: courseUrl },
          }
        : {
            // What matters first: a mail app shows the subject's start.
            subject: `Matrícula feita: ${course}`,
            preheader: `O ${courseNoun(course)} já está na sua área de membros.`,
            heading: 'Sua matrícula foi feita',
            paragraphs: [hello(p), `O ${courseNoun(course)} já está na sua área de membros. É só entrar e começar.`],
            action: { label: 'Acessar o curso', url: courseUrl },
          };
    }
    case 'invoice_available': {
      // Issue 42 (docs/nota-fiscal.md): the municipality authorized the purchase's NFS-e; the PDF is Asaas's.
      const bought = purchaseOf(p);
      const pdf = str(p, 'pdf_url');
      return {
        subject: `Nota fiscal disponível: ${bought.title}`,
        preheader: 'A nota fiscal da sua compra foi emitida.',
        heading: 'Nota fiscal disponível',
        paragraphs: [
          hello(p),
          bought.kind === 'plan'
            ? `A nota fiscal do pagamento da sua assinatura do ${planNoun(bought.title)} foi emitida.`
            : bought.kind === 'bump'
              ? `A nota fiscal da sua compra dos cursos ${bought.title} foi emitida.`
              : `A nota fiscal da sua compra do ${courseNoun(bought.title)} foi emitida.`,
          'Ela também fica no seu perfil, em "Minhas compras", com o arquivo XML.',
        ],
        details: [
          ...purchaseDetails(bought),
          ...(str(p, 'number') ? ([['Número da nota', str(p, 'number')]] as [string, string][]) : []),
          ['Valor', money(num(p, 'amount'))],
        ],
        action: /^https?:\/\//.test(pdf) ? { label: 'Baixar a nota fiscal (PDF)', url: pdf } : undefined,
      };
    }
    case 'pix_expiring': {
      // Issue 41: an hour before the PIX's end, with its copia e cola (the pending message's payload).
      const bought = purchaseOf(p);
      return {
        subject: `Seu PIX expira em 1 hora: ${bought.title}`,
        preheader: 'Pague agora com o PIX copia e cola.',
        heading: 'Seu PIX expira em 1 hora',
        paragraphs: [
          hello(p),
          bought.kind === 'bump'
            ? `O PIX do seu pedido dos cursos ${bought.title} expira em 1 hora. Pague agora e os dois cursos são liberados assim que o pagamento for confirmado.`
            : `O PIX do seu pedido do ${courseNoun(bought.title)} expira em 1 hora. Pague agora e o acesso é liberado assim que o pagamento for confirmado.`,
          'Depois disso, este código deixa de valer.',
        ],
        details: [...purchaseDetails(bought), ['Valor', money(num(p, 'amount'))]],
        code: str(p, 'pix_code') ? { label: 'PIX copia e cola', value: str(p, 'pix_code') } : undefined,
        action: str(p, 'invoice_url') ? { label: 'Ver a fatura', url: str(p, 'invoice_url') } : undefined,
      };
    }
    case 'checkout_recovery': {
      // Issue 41: the sequence after an abandoned checkout (docs/recovery.md). Each touch says the course, the
      // price, the coupon the buyer had, and links back to the checkout as it was left; the last may bring a
      // coupon of the buyer's own.
      const touch = num(p, 'touch');
      if (str(p, 'plan_name')) return planRecovery(p, touch, links, courseUrl);
      const bump = str(p, 'bump_title');
      const title = bump ? list([course, bump]) : course;
      const had = str(p, 'coupon_code');
      const extra = (p.recovery_coupon && typeof p.recovery_coupon === 'object' ? p.recovery_coupon : null) as Payload | null;
      const until = extra && str(extra, 'valid_until') ? new Date(str(extra, 'valid_until')) : null;
      const untilText = until
        ? new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'America/Sao_Paulo' }).format(until).replace(', ', ' às ')
        : '';
      const reopen = str(p, 'course_slug') && str(p, 'session_id') && links.checkout ? links.checkout(str(p, 'course_slug'), str(p, 'session_id')) : courseUrl;
      return {
        subject: extra
          ? `${Number(num(extra, 'percent'))}% de desconto no ${courseNoun(course)}`
          : touch > 1 ? `Ainda dá tempo: ${title}` : `Seu pedido está esperando: ${title}`,
        preheader: extra ? `Um cupom só seu, válido por 48 horas.` : 'Sua compra ficou guardada do jeito que você deixou.',
        heading: extra ? 'Um desconto para você terminar sua compra' : 'Sua compra ficou guardada',
        paragraphs: [
          hello(p),
          bump
            ? `Você começou a compra dos cursos ${title} e não terminou. Guardamos o seu pedido do jeito que você deixou.`
            : `Você começou a compra do ${courseNoun(course)} e não terminou. Guardamos o seu pedido do jeito que você deixou.`,
          ...(had && !extra ? [`O cupom ${had} continua no pedido.`] : []),
          ...(str(p, 'stage') === 'pix' ? ['O PIX anterior expirou: ao voltar, um novo PIX é gerado para você.'] : []),
          ...(extra
            ? [`Para ajudar, separamos um cupom de ${Number(num(extra, 'percent'))}% só para você, neste curso. Ele vale uma vez${untilText ? `, até ${untilText} (horário de Brasília)` : ', por 48 horas'}.`]
            : []),
        ],
        details: [
          [bump ? 'Cursos' : 'Curso', title],
          ['Valor', money(num(p, 'amount'))],
          ...(extra ? ([['Cupom', str(extra, 'code')]] as [string, string][]) : had ? ([['Cupom', had]] as [string, string][]) : []),
        ],
        code: extra ? { label: 'Seu cupom', value: str(extra, 'code') } : undefined,
        action: { label: 'Retomar minha compra', url: reopen },
      };
    }
    case 'payment_pending':
    case 'payment_reminder': {
      const bought = purchaseOf(p);
      const boleto = str(p, 'method') === 'BOLETO';
      const reminder = kind === 'payment_reminder';
      const how = boleto ? 'do boleto' : 'pelo PIX';
      const when = boleto ? 'o banco confirmar o pagamento' : 'o pagamento for confirmado';
      return {
        subject: reminder ? `Seu boleto vence amanhã: ${bought.title}` : `Pagamento pendente: ${bought.title}`,
        preheader: `${boleto ? 'Pague o boleto' : 'Pague com o PIX'} para ${bought.kind === 'plan' ? 'ativar o seu plano' : bought.kind === 'bump' ? 'liberar os cursos' : 'liberar o curso'}.`,
        heading: reminder ? 'Seu boleto vence amanhã' : 'Pagamento pendente',
        paragraphs: [
          hello(p),
          bought.kind === 'plan'
            ? `Sua assinatura do ${planNoun(bought.title)} está aguardando o pagamento ${how}. O plano fica ativo assim que ${when}.`
            : bought.kind === 'bump'
              ? `Seu pedido dos cursos ${bought.title} está aguardando o pagamento ${how}. Os dois cursos são liberados assim que ${when}.`
              : `Seu pedido do ${courseNoun(bought.title)} está aguardando o pagamento ${how}. O acesso é liberado assim que ${when}.`,
        ],
        details: [
          ...purchaseDetails(bought),
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
    case 'payment_confirmed': {
      const bought = purchaseOf(p);
      return {
        subject: `Pagamento confirmado: ${bought.title}`,
        preheader: bought.kind === 'plan' ? 'Seu plano está ativo.' : bought.kind === 'bump' ? 'Seus cursos estão liberados.' : 'Seu curso está liberado.',
        heading: 'Pagamento confirmado',
        paragraphs: [
          hello(p),
          bought.kind === 'plan'
            ? `Recebemos o seu pagamento. Seu ${planNoun(bought.title)} está ativo e os cursos dele já estão liberados na sua área de membros.`
            : bought.kind === 'bump'
              ? `Recebemos o seu pagamento e os cursos ${bought.title} já estão liberados.`
              : `Recebemos o seu pagamento e o ${courseNoun(bought.title)} já está liberado.`,
          'Guarde este e-mail como comprovante.',
        ],
        details: [
          ...purchaseDetails(bought),
          ['Valor', money(num(p, 'amount'))],
          ['Forma de pagamento', METHOD[str(p, 'method')] ?? str(p, 'method')],
          ['Data', date(str(p, 'paid_at'))],
        ],
        action:
          bought.kind === 'course'
            ? { label: 'Acessar o curso', url: courseUrl }
            : { label: bought.kind === 'plan' ? 'Ir para a área de membros' : 'Acessar meus cursos', url: links.login },
      };
    }
    case 'payment_refunded': {
      const bought = purchaseOf(p);
      const what = str(p, 'reason') === 'chargeback' ? 'contestado junto ao cartão' : 'estornado';
      return {
        subject: `Pagamento estornado: ${bought.title}`,
        preheader: bought.kind === 'plan' ? 'O acesso aos cursos do plano foi pausado.' : bought.kind === 'bump' ? 'O acesso aos cursos foi pausado.' : 'O acesso ao curso foi pausado.',
        heading: 'Pagamento estornado',
        paragraphs: [
          hello(p),
          bought.kind === 'plan'
            ? `O pagamento da sua assinatura do ${planNoun(bought.title)} foi ${what} e o acesso aos cursos do plano foi pausado.`
            : bought.kind === 'bump'
              ? `O pagamento dos cursos ${bought.title} foi ${what} e o seu acesso aos dois cursos foi pausado.`
              : `O pagamento do ${courseNoun(bought.title)} foi ${what} e o seu acesso ao curso foi pausado.`,
          'Se você não reconhece este estorno ou quer voltar a estudar, fale com a escola.',
        ],
        details: [...purchaseDetails(bought), ['Valor', money(num(p, 'amount'))]],
      };
    }
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
        preheader: `Continue o ${courseNoun(course)} de onde parou.`,
        heading: 'Sentimos sua falta',
        paragraphs: [
          hello(p),
          Number.isFinite(percent)
            ? `Você já fez ${Math.round(percent)}% do ${courseNoun(course)}. Que tal continuar de onde parou?`
            : `Que tal continuar o ${courseNoun(course)} de onde parou?`,
        ],
        action: { label: 'Continuar o curso', url: courseUrl },
      };
    }
    case 'turma_starts_tomorrow': {
      // Issue 40: the day before the turma's start (queue_daily_emails); the lessons open at 00:00.
      const turma = str(p, 'turma_name');
      const day = date(str(p, 'starts_on'));
      return {
        subject: `Sua turma começa amanhã: ${course}`,
        preheader: day ? `As aulas começam em ${day}.` : 'As aulas começam amanhã.',
        heading: 'Sua turma começa amanhã',
        paragraphs: [hello(p), `Sua turma do ${courseNoun(course)}, ${turma}, começa amanhã${day ? `, ${day}` : ''}. As primeiras aulas são liberadas à 0h (horário de Brasília).`],
        details: [['Curso', course], ['Turma', turma], ...(day ? [['Início', day] as [string, string]] : [])],
        action: { label: 'Ver o curso', url: courseUrl },
      };
    }
    case 'turma_waitlist_open': {
      // Issue 40: the course sells a turma again (a seat opened, or the next turma's enrollments opened);
      // everyone on the list is told at once, so the words say the seats go to who buys first.
      const turma = str(p, 'turma_name');
      const day = date(str(p, 'starts_on'));
      const sameTurma = p.same_turma === true;
      return {
        subject: sameTurma ? `Abriu uma vaga: ${turma} (${course})` : `Inscrições abertas: ${turma} (${course})`,
        preheader: 'As vagas são de quem garantir primeiro.',
        heading: sameTurma ? 'Abriu uma vaga na turma' : 'Uma nova turma abriu as inscrições',
        paragraphs: [
          hello(p),
          sameTurma
            ? `Abriu uma vaga na ${turma} do ${courseNoun(course)}, que você estava esperando na lista de espera.`
            : `A ${turma} do ${courseNoun(course)} abriu as inscrições. Você estava na lista de espera deste curso.`,
          'As vagas são de quem garantir primeiro: quem está na lista recebe este aviso ao mesmo tempo.',
        ],
        details: [['Curso', course], ['Turma', turma], ...(day ? [['Início', day] as [string, string]] : [])],
        action: { label: 'Garantir minha vaga', url: str(p, 'course_slug') && links.buy ? links.buy(str(p, 'course_slug')) : courseUrl },
      };
    }
    case 'announcement': {
      // Issue 40: "Comunicado para a turma" sent by e-mail too. The body is the staff's HTML: its text here.
      const title = str(p, 'title');
      const turma = str(p, 'turma_name');
      return {
        subject: `${title} (${turma})`,
        preheader: `Comunicado para a ${turma} do ${courseNoun(course)}.`,
        heading: title,
        paragraphs: [hello(p), `Um comunicado para a sua turma, ${turma}, do ${courseNoun(course)}:`, ...htmlParagraphs(str(p, 'body'))],
        action: { label: 'Ver o curso', url: courseUrl },
      };
    }
    case 'certificate_available':
      return {
        subject: `Seu certificado de ${course} está disponível`,
        preheader: 'Parabéns pela conclusão!',
        heading: 'Parabéns pela conclusão!',
        paragraphs: [hello(p), `Seu certificado de conclusão do ${courseNoun(course)} está disponível. Qualquer pessoa pode conferir a autenticidade dele pelo link abaixo.`],
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
