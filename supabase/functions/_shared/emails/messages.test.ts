// deno test: the school e-mails as a student receives them (npm test runs it with the functions' checks).
import assert from 'node:assert/strict';
import { EMAIL_KINDS, OPTIONAL_KINDS, renderMessage } from './messages.ts';

const brand = { name: 'Escola Demo', logoUrl: 'https://cdn.exemplo.com/logo.png', primaryColor: '#7c3aed', supportWhatsapp: '(11) 98888-7777' };
const links = {
  login: 'https://app.exemplo.com/escola-demo',
  course: (id: string) => `https://app.exemplo.com/course/${id}`,
  certificate: (code: string) => `https://app.exemplo.com/certificado/${code}`,
  setPassword: 'https://api.exemplo.com/auth/v1/verify?token=abc&type=invite',
  unsubscribe: 'https://api.exemplo.com/functions/v1/email-preferences?token=xyz',
};

Deno.test('Acesso liberado: the courses and the link to choose a password, never a password', () => {
  const m = renderMessage('access_granted', { name: 'Maria da Silva', courses: ['Excel Essencial', 'Python do Zero'] }, brand, links);
  assert.equal(m.subject, 'Escola Demo: seu acesso foi liberado');
  assert.match(m.text, /Olá, Maria!/);
  assert.match(m.text, /com acesso aos cursos Excel Essencial e Python do Zero\./);
  assert.match(m.html, /href="https:\/\/api\.exemplo\.com\/auth\/v1\/verify\?token=abc&amp;type=invite"/);
  assert.match(m.text, /Criar minha senha: https:\/\/api\.exemplo\.com\/auth\/v1\/verify\?token=abc&type=invite/);
  assert.doesNotMatch(m.text, /senha (temporária|inicial)|sua senha é/i);
  // Essential: no unsubscribe link; the school's WhatsApp and colour are there.
  assert.doesNotMatch(m.html, /Descadastrar/);
  assert.match(m.html, /https:\/\/wa\.me\/11988887777/);
  assert.match(m.html, /background:#7c3aed/);
});

Deno.test('Pagamento pendente: the PIX code to copy and the invoice; the boleto its line, PDF and due date', () => {
  const pix = renderMessage('payment_pending', { course_title: 'Excel Essencial', method: 'PIX', amount: 297, pix_code: '00020126580014br.gov.bcb.pix', invoice_url: 'https://sandbox.asaas.com/i/123' }, brand, links);
  assert.equal(pix.subject, 'Pagamento pendente: Excel Essencial');
  assert.match(pix.text, /Valor: R\$\s297,00/);
  assert.match(pix.text, /PIX copia e cola:\n00020126580014br\.gov\.bcb\.pix/);
  assert.match(pix.text, /Ver a fatura: https:\/\/sandbox\.asaas\.com\/i\/123/);
  const boleto = renderMessage('payment_reminder', { course_title: 'Excel Essencial', method: 'BOLETO', amount: 297, boleto_line: '23793.38128 60000.000003 00000.000400 1 84340000029700', boleto_url: 'https://sandbox.asaas.com/b/pdf/123', due_date: '2026-12-01' }, brand, links);
  assert.equal(boleto.subject, 'Seu boleto vence amanhã: Excel Essencial');
  assert.match(boleto.text, /Vencimento: 01\/12\/2026/);
  assert.match(boleto.text, /Linha digitável:\n23793\.38128/);
  assert.match(boleto.text, /Baixar o boleto: https:\/\/sandbox\.asaas\.com\/b\/pdf\/123/);
});

Deno.test('Pagamento confirmado is a receipt; estornado says access is paused', () => {
  const ok = renderMessage('payment_confirmed', { course_title: 'Excel Essencial', course_id: 'c1', amount: 297, method: 'CREDIT_CARD', paid_at: '2026-11-26T15:00:00Z' }, brand, links);
  assert.match(ok.text, /Forma de pagamento: Cartão de crédito/);
  assert.match(ok.text, /Data: 26\/11\/2026/);
  assert.match(ok.text, /Acessar o curso: https:\/\/app\.exemplo\.com\/course\/c1/);
  const refund = renderMessage('payment_refunded', { course_title: 'Excel Essencial', amount: 297, reason: 'chargeback' }, brand, links);
  assert.match(refund.text, /contestado junto ao cartão e o seu acesso ao curso foi pausado/);
});

Deno.test('optional kinds carry the one-click unsubscribe link; essential ones never do', () => {
  for (const kind of EMAIL_KINDS) {
    const m = renderMessage(kind, { course_title: 'Excel', course_id: 'c1', modules: [{ course_title: 'Excel', module_title: 'Fórmulas', course_id: 'c1' }] }, brand, links);
    assert.equal(m.html.includes('Descadastrar'), OPTIONAL_KINDS.includes(kind), kind);
    assert.ok(m.subject.length > 0 && m.text.length > 0, kind);
  }
});

Deno.test("a school's or student's text cannot inject markup, and odd colours and links fall back", () => {
  const m = renderMessage('new_enrollment', { name: '<b>Eve</b>', course_title: '"><script>alert(1)</script>', course_id: 'c1' }, { ...brand, name: 'Escola <i>', primaryColor: 'red;background:url(x)', logoUrl: 'javascript:alert(1)' }, links);
  assert.doesNotMatch(m.html, /<script>|<b>Eve|<i>|javascript:|url\(x\)/);
  assert.match(m.html, /&lt;script&gt;/);
  assert.match(m.html, /background:#2563eb/);
  const risky = renderMessage('certificate_available', { course_title: 'Excel', code: 'ABCD-2345' }, brand, { ...links, certificate: () => 'javascript:alert(1)' });
  assert.doesNotMatch(risky.html, /javascript:/);
});

Deno.test('Certificado disponível links to the public verification page of its code', () => {
  const m = renderMessage('certificate_available', { name: 'Maria', course_title: 'Excel Essencial', code: 'ABCD-2345-EFGH' }, brand, links);
  assert.equal(m.subject, 'Seu certificado de Excel Essencial está disponível');
  assert.match(m.text, /Código de verificação: ABCD-2345-EFGH/);
  assert.match(m.text, /Ver o certificado: https:\/\/app\.exemplo\.com\/certificado\/ABCD-2345-EFGH/);
});

// Issue 46, item 3: each kind of purchase gets its own words, in every e-mail that names one.
const items = {
  course: [{ kind: 'course', title: 'Marketing Digital', course_id: 'c2' }],
  bump: [{ kind: 'course', title: 'Marketing Digital', course_id: 'c2' }, { kind: 'bump', title: 'Excel Essencial', course_id: 'c1' }],
  plan: [{ kind: 'plan', title: 'Plano Completo', course_id: null }],
};
const paid = (which: keyof typeof items, extra: Record<string, unknown> = {}) => ({
  name: 'Mariana Souza', course_title: which === 'bump' ? 'Marketing Digital + Excel Essencial' : which === 'plan' ? 'Plano Completo' : 'Marketing Digital',
  course_id: which === 'plan' ? null : 'c2', items: items[which], amount: 49.9, method: 'PIX', paid_at: '2026-11-26T15:00:00Z', pix_code: '000201', invoice_url: 'https://sandbox.asaas.com/i/1',
  ...(which === 'plan' ? { plan_cycle: 'MONTHLY' } : {}), ...extra,
});
const PURCHASE_KINDS = ['payment_pending', 'payment_reminder', 'payment_confirmed', 'payment_refunded'] as const;

Deno.test('a course: "o curso …" and "Acessar o curso"', () => {
  const ok = renderMessage('payment_confirmed', paid('course'), brand, links);
  assert.equal(ok.subject, 'Pagamento confirmado: Marketing Digital');
  assert.match(ok.text, /Recebemos o seu pagamento e o curso Marketing Digital já está liberado\./);
  assert.match(ok.text, /Curso: Marketing Digital/);
  assert.match(ok.text, /Acessar o curso: https:\/\/app\.exemplo\.com\/course\/c2/);
  assert.match(renderMessage('payment_pending', paid('course'), brand, links).text, /Seu pedido do curso Marketing Digital está aguardando o pagamento pelo PIX\./);
  assert.match(renderMessage('payment_refunded', paid('course'), brand, links).text, /O pagamento do curso Marketing Digital foi estornado e o seu acesso ao curso foi pausado\./);
  // A title that already says "Curso" is not "curso Curso de …".
  assert.match(renderMessage('payment_confirmed', paid('course', { items: [{ kind: 'course', title: 'Curso de Excel' }] }), brand, links).text, /e o Curso de Excel já está liberado/);
});

Deno.test('a course with its order bump: both courses by name, never "curso A + B"', () => {
  for (const kind of PURCHASE_KINDS) {
    const m = renderMessage(kind, paid('bump', kind === 'payment_reminder' ? { method: 'BOLETO', due_date: '2026-12-01' } : {}), brand, links);
    assert.match(m.subject, /: Marketing Digital e Excel Essencial$/, kind);
    assert.match(m.text, /Cursos: Marketing Digital e Excel Essencial/, kind);
    assert.doesNotMatch(m.html + m.text, /\+|curso Marketing/, kind);
  }
  assert.match(renderMessage('payment_pending', paid('bump'), brand, links).text, /Seu pedido dos cursos Marketing Digital e Excel Essencial está aguardando o pagamento pelo PIX\. Os dois cursos são liberados/);
  const ok = renderMessage('payment_confirmed', paid('bump'), brand, links);
  assert.match(ok.text, /os cursos Marketing Digital e Excel Essencial já estão liberados\./);
  assert.match(ok.text, /Acessar meus cursos: https:\/\/app\.exemplo\.com\/escola-demo/);
  assert.match(renderMessage('payment_refunded', paid('bump'), brand, links).text, /o seu acesso aos dois cursos foi pausado/);
});

Deno.test('a plan: "Seu Plano Completo está ativo", the member area, never "o curso Plano Completo"', () => {
  for (const kind of PURCHASE_KINDS) {
    const m = renderMessage(kind, paid('plan'), brand, links);
    assert.match(m.subject, /: Plano Completo$/, kind);
    assert.match(m.text, /Plano: Plano Completo\nAssinatura: Mensal/, kind);
    assert.doesNotMatch(m.html + m.text, /curso Plano|Acessar o curso|plano Plano/i, kind);
  }
  const ok = renderMessage('payment_confirmed', paid('plan'), brand, links);
  assert.match(ok.text, /Seu Plano Completo está ativo e os cursos dele já estão liberados na sua área de membros\./);
  assert.match(ok.text, /Ir para a área de membros: https:\/\/app\.exemplo\.com\/escola-demo/);
  assert.match(renderMessage('payment_pending', paid('plan'), brand, links).text, /Sua assinatura do Plano Completo está aguardando o pagamento pelo PIX\. O plano fica ativo/);
  assert.match(renderMessage('payment_refunded', paid('plan'), brand, links).text, /O pagamento da sua assinatura do Plano Completo foi estornado e o acesso aos cursos do plano foi pausado\./);
  // A plan named otherwise is "o plano Premium".
  assert.match(renderMessage('payment_confirmed', paid('plan', { items: [{ kind: 'plan', title: 'Premium' }] }), brand, links).text, /Seu plano Premium está ativo/);
  // A course a plan opened says so.
  const enrolled = renderMessage('new_enrollment', { name: 'Mariana', course_title: 'Excel Essencial', course_id: 'c1', plan_name: 'Plano Completo' }, brand, links);
  assert.equal(enrolled.subject, 'Novo curso no seu Plano Completo: Excel Essencial');
  assert.match(enrolled.text, /O curso Excel Essencial faz parte do seu Plano Completo e já está na sua área de membros\./);
});

Deno.test('no e-mail assumes the student\'s gender', () => {
  const payload = { name: 'Mariana Souza', course_title: 'Excel', course_id: 'c1', courses: ['Excel'], code: 'ABCD', modules: [{ course_title: 'Excel', module_title: 'Fórmulas', course_id: 'c1' }] };
  for (const kind of EMAIL_KINDS) {
    for (const which of ['course', 'bump', 'plan'] as const) {
      const m = renderMessage(kind, { ...payload, ...paid(which) }, brand, links);
      assert.doesNotMatch(`${m.subject}\n${m.text}`, /matriculad[oa]|bem-vind[oa]|obrigad[oa]|convidad[oa]|aluno|caro|prezad/i, `${kind} ${which}`);
    }
  }
  const enrolled = renderMessage('new_enrollment', { name: 'Mariana Souza', course_title: 'Excel Essencial', course_id: 'c1' }, brand, links);
  assert.equal(enrolled.subject, 'Matrícula feita: Excel Essencial');
  assert.match(enrolled.text, /^Sua matrícula foi feita\n\nOlá, Mariana!/);
});

Deno.test('Sua turma começa amanhã (issue 40): the turma, the course and the day, with the course button', () => {
  const m = renderMessage('turma_starts_tomorrow', { name: 'Mariana Souza', course_title: 'Excel Essencial', course_id: 'c1', turma_name: 'Turma de março', starts_on: '2026-03-10' }, brand, links);
  assert.equal(m.subject, 'Sua turma começa amanhã: Excel Essencial');
  assert.match(m.text, /Olá, Mariana!/);
  assert.match(m.text, /Sua turma do curso Excel Essencial, Turma de março, começa amanhã, 10\/03\/2026\./);
  assert.match(m.text, /Ver o curso: https:\/\/app\.exemplo\.com\/course\/c1/);
  assert.equal(m.html.includes('Descadastrar'), false);
});

// Issue 41: the recovery sequence and the PIX's last hour (docs/recovery.md).
Deno.test('Recuperação de vendas: the course, the price, the coupon they had and the link back; the last touch its own coupon', () => {
  const withLinks = { ...links, checkout: (slug: string, id: string) => `https://app.exemplo.com/checkout/${slug}?retomar=${id}` };
  const base = { name: 'Paula Souza', course_title: 'Excel Essencial', course_slug: 'excel-essencial', session_id: 's1', amount: 237.6, coupon_code: 'BEMVINDO20', stage: 'opened' };
  const first = renderMessage('checkout_recovery', { ...base, touch: 1 }, brand, withLinks);
  assert.equal(first.subject, 'Seu pedido está esperando: Excel Essencial');
  assert.match(first.text, /Olá, Paula!/);
  assert.match(first.text, /Você começou a compra do curso Excel Essencial e não terminou\./);
  assert.match(first.text, /O cupom BEMVINDO20 continua no pedido\./);
  assert.match(first.text, /Valor: R\$\s237,60/);
  assert.match(first.text, /Retomar minha compra: https:\/\/app\.exemplo\.com\/checkout\/excel-essencial\?retomar=s1/);
  assert.match(first.html, /Descadastrar/);
  assert.equal(renderMessage('checkout_recovery', { ...base, touch: 2, stage: 'pix' }, brand, withLinks).subject, 'Ainda dá tempo: Excel Essencial');
  assert.match(renderMessage('checkout_recovery', { ...base, touch: 2, stage: 'pix' }, brand, withLinks).text, /O PIX anterior expirou: ao voltar, um novo PIX é gerado para você\./);
  const last = renderMessage('checkout_recovery', { ...base, touch: 3, recovery_coupon: { code: 'RECUPERA-ABC', percent: 15, valid_until: '2026-12-03T15:00:00Z' } }, brand, withLinks);
  assert.equal(last.subject, '15% de desconto no curso Excel Essencial');
  assert.match(last.text, /um cupom de 15% só para você, neste curso\. Ele vale uma vez, até 03\/12\/2026 às 12:00 \(horário de Brasília\)\./);
  assert.match(last.text, /RECUPERA-ABC/);
  // With the bump: both courses by name.
  assert.match(renderMessage('checkout_recovery', { ...base, touch: 1, bump_title: 'Python do Zero' }, brand, withLinks).text, /a compra dos cursos Excel Essencial e Python do Zero/);
});

Deno.test('Recuperação de vendas of a plan: the plan, its price per cycle and the link back to the plan\'s checkout; no coupon', () => {
  const withLinks = {
    ...links,
    checkout: (slug: string, id: string, offer?: 'course' | 'plan') => `https://app.exemplo.com/checkout/${offer === 'plan' ? 'plano/' : ''}${slug}?retomar=${id}`,
  };
  const base = { name: 'Renata Lima', plan_name: 'Premium', plan_slug: 'premium', plan_cycle: 'YEARLY', session_id: 's2', amount: 499, stage: 'opened' };
  const first = renderMessage('checkout_recovery', { ...base, touch: 1 }, brand, withLinks);
  assert.equal(first.subject, 'Sua assinatura está esperando: Premium');
  assert.match(first.text, /Você começou a assinatura do plano Premium e não terminou\./);
  assert.match(first.text, /Plano: Premium/);
  assert.match(first.text, /Valor: R\$\s499,00 por ano/);
  assert.match(first.text, /Retomar minha assinatura: https:\/\/app\.exemplo\.com\/checkout\/plano\/premium\?retomar=s2/);
  assert.equal(first.text.includes('Cupom'), false);
  assert.equal(renderMessage('checkout_recovery', { ...base, touch: 2 }, brand, withLinks).subject, 'Ainda dá tempo: Premium');
});

Deno.test('Seu PIX expira em 1 hora: the copia e cola and the invoice; never the unsubscribe link', () => {
  const m = renderMessage('pix_expiring', { name: 'Paula Souza', course_title: 'Excel Essencial', items: [{ kind: 'course', title: 'Excel Essencial' }], amount: 297, method: 'PIX', pix_code: '00020126pix', invoice_url: 'https://sandbox.asaas.com/i/1' }, brand, links);
  assert.equal(m.subject, 'Seu PIX expira em 1 hora: Excel Essencial');
  assert.match(m.text, /O PIX do seu pedido do curso Excel Essencial expira em 1 hora\./);
  assert.match(m.text, /00020126pix/);
  assert.doesNotMatch(m.html, /Descadastrar/);
});

Deno.test('Nota fiscal disponível: what was bought, the note\'s number and value, the PDF as the button', () => {
  const m = renderMessage('invoice_available', { name: 'Paula Souza', items: [{ kind: 'course', title: 'Excel Essencial' }], amount: 297, number: '00000042', pdf_url: 'https://sandbox.asaas.com/nf/inv_1.pdf' }, brand, links);
  assert.equal(m.subject, 'Nota fiscal disponível: Excel Essencial');
  assert.match(m.text, /Olá, Paula!/);
  assert.match(m.text, /A nota fiscal da sua compra do curso Excel Essencial foi emitida\./);
  assert.match(m.text, /Número da nota[\s\S]*00000042/);
  assert.match(m.text, /Baixar a nota fiscal \(PDF\): https:\/\/sandbox\.asaas\.com\/nf\/inv_1\.pdf/);
  assert.match(m.text, /Minhas compras/);
  const bump = renderMessage('invoice_available', { items: [{ kind: 'course', title: 'Marketing' }, { kind: 'bump', title: 'Excel' }], amount: 334.6, pdf_url: 'javascript:alert(1)' }, brand, links);
  assert.match(bump.text, /dos cursos Marketing e Excel foi emitida/);
  assert.doesNotMatch(bump.html, /javascript:/);
});

// Issue 40: the waiting list's news and a turma's announcement by e-mail (docs/turmas.md).
Deno.test('Vaga na lista de espera: the course, the turma, first-come, the checkout link and Descadastrar', () => {
  const withBuy = { ...links, buy: (slug: string) => `https://app.exemplo.com/checkout/${slug}` };
  const base = { name: 'Paula Souza', course_title: 'Excel Essencial', course_id: 'c1', course_slug: 'excel-essencial', turma_name: 'Turma de março', starts_on: '2026-03-10' };
  const seat = renderMessage('turma_waitlist_open', { ...base, same_turma: true }, brand, withBuy);
  assert.equal(seat.subject, 'Abriu uma vaga: Turma de março (Excel Essencial)');
  assert.match(seat.text, /Olá, Paula!/);
  assert.match(seat.text, /Abriu uma vaga na Turma de março do curso Excel Essencial, que você estava esperando na lista de espera\./);
  assert.match(seat.text, /As vagas são de quem garantir primeiro/);
  assert.match(seat.text, /Início: 10\/03\/2026/);
  assert.match(seat.text, /Garantir minha vaga: https:\/\/app\.exemplo\.com\/checkout\/excel-essencial/);
  assert.match(seat.html, /Descadastrar/);
  const next = renderMessage('turma_waitlist_open', { ...base, turma_name: 'Turma de abril', same_turma: false }, brand, withBuy);
  assert.equal(next.subject, 'Inscrições abertas: Turma de abril (Excel Essencial)');
  assert.match(next.text, /A Turma de abril do curso Excel Essencial abriu as inscrições\./);
});

Deno.test("Comunicado para a turma: the title, the turma and the announcement's text without its HTML", () => {
  const m = renderMessage(
    'announcement',
    { name: 'Paula Souza', course_title: 'Excel Essencial', course_id: 'c1', turma_name: 'Turma de março', title: 'Aula ao vivo', body: '<p>Quinta, às 20h &amp; com <strong>convidado</strong>.</p><ul><li>Traga dúvidas</li></ul><script>x</script>' },
    brand,
    links,
  );
  assert.equal(m.subject, 'Aula ao vivo (Turma de março)');
  assert.match(m.text, /Um comunicado para a sua turma, Turma de março, do curso Excel Essencial:/);
  assert.match(m.text, /Quinta, às 20h & com convidado\./);
  assert.match(m.text, /• Traga dúvidas/);
  assert.doesNotMatch(m.html, /<strong>|<script>/);
  assert.match(m.text, /Ver o curso: https:\/\/app\.exemplo\.com\/course\/c1/);
  assert.match(m.html, /Descadastrar/);
});
