// The fake Asaas's service invoices (NFS-e, issue 42), with Asaas's routes and JSON shapes:
// - GET /fiscalInfo (404 when the account registered none), GET /fiscalInfo/municipalOptions,
//   GET /fiscalInfo/municipalServices?description= (a municipality's list, searched by description).
// - POST /invoices (a payment's invoice, SCHEDULED; INVOICE_CREATED), GET /invoices?externalReference=&payment=,
//   GET and PUT /invoices/{id} (PUT while SCHEDULED or ERROR), POST /invoices/{id}/authorize (answered
//   SYNCHRONIZED; then INVOICE_SYNCHRONIZED and INVOICE_AUTHORIZED with number, pdfUrl and xmlUrl, or INVOICE_ERROR
//   with the municipality's statusDescription), POST /invoices/{id}/cancel (a scheduled or failed one is
//   CANCELED at once; an authorized one PROCESSING_CANCELLATION, then INVOICE_CANCELED or
//   INVOICE_CANCELLATION_DENIED). Events carry the whole invoice and go to the account's webhook with its token.
// - GET /nf/{id}.pdf and .xml: the issued note's files.
// Fake-only controls (no such thing at Asaas): setFiscalInfo(apiKey, info | null), setInvoiceOutcome(apiKey,
// { error, denyCancellation }) — the municipality refuses the next invoices with `error`, or their
// cancellation — and POST /nfse/controle with the same JSON ({ apiKey, fiscalInfo?, error?, denyCancellation? }).
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';

type Json = Record<string, unknown>;
export type FakeAsaasInvoice = Json & { id: string; status: string; payment: string | null; installment: string | null; externalReference: string | null };

interface Account {
  apiKey: string;
}

export interface FakeInvoiceOutcome {
  /** The municipality refuses the account's invoices with this message (null: they are authorized). */
  error?: string | null;
  /** The municipality denies the cancellation of the account's authorized invoices. */
  denyCancellation?: boolean;
}

/** A complete fiscal registration (the demo schools' default). */
export const COMPLETE_FISCAL_INFO: Json = {
  email: 'fiscal@escola.example',
  municipalInscription: '12345678',
  simplesNacional: true,
  culturalProjectsPromoter: false,
  cnae: '8599604',
  specialTaxRegime: null,
  serviceListItem: null,
  rpsSerie: 'E',
  rpsNumber: 1,
  loteNumber: 1,
  username: null,
  passwordSent: false,
  accessTokenSent: false,
  certificateSent: true,
  nationalPortalTaxCalculationRegime: null,
};

const MUNICIPAL_OPTIONS: Json = {
  authenticationType: 'CERTIFICATE',
  supportsCancellation: true,
  usesSpecialTaxRegimes: false,
  usesServiceListItem: false,
  specialTaxRegimesList: [],
  municipalInscriptionHelp: 'Somente números, sem pontos ou traços.',
  specialTaxRegimeHelp: null,
  serviceListItemHelp: null,
  digitalCertificatedHelp: 'Envie o certificado e-CNPJ A1 (.pfx) e a senha dele.',
  accessTokenHelp: null,
  municipalServiceCodeHelp: null,
};

// A municipality's list (São Paulo's codes for education and training).
const MUNICIPAL_SERVICES = [
  { id: '02496', description: '08.02 - Instrução, treinamento, orientação pedagógica e educacional, avaliação de conhecimentos de qualquer natureza', issTax: 2 },
  { id: '02500', description: '08.01 - Ensino regular pré-escolar, fundamental, médio e superior', issTax: 2 },
  { id: '02658', description: '01.03 - Processamento, armazenamento ou hospedagem de dados, textos, imagens, vídeos, páginas eletrônicas', issTax: 2.9 },
  { id: '02660', description: '01.05 - Licenciamento ou cessão de direito de uso de programas de computação', issTax: 2.9 },
  { id: '02919', description: '17.06 - Propaganda e publicidade, inclusive promoção de vendas, planejamento de campanhas', issTax: 5 },
  { id: '02684', description: '12.17 - Recreação e animação, inclusive em festas e eventos de qualquer natureza', issTax: 5 },
  { id: '03115', description: '17.01 - Assessoria ou consultoria de qualquer natureza', issTax: 5 },
  { id: '07285', description: '08.02 - Cursos livres, cursos on-line e treinamentos à distância', issTax: 2 },
];

const fold = (s: unknown) => String(s ?? '').normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

export class InvoiceFail extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly description: string,
  ) {
    super(description);
  }
}

export interface FakeInvoicesDeps<A extends Account> {
  accounts: A[];
  baseUrl: () => string;
  /** The customer and value of a payment of that account; undefined when it has none with that id. */
  paymentOf: (account: A, id: string) => { customer: string; value: number } | undefined;
  /** The customer and total value of an installment plan of that account; undefined when it has none. */
  installmentOf: (account: A, id: string) => { customer: string; value: number } | undefined;
  deliver: (account: A, event: string, payload: Json, about: string, o: { eventId?: string; token?: string | null }) => Promise<{ status: number; eventId: string; body: string }>;
  afterAnswer: (res: ServerResponse, events: (() => Promise<unknown>)[]) => void;
  today: () => string;
}

export function fakeInvoices<A extends Account>(deps: FakeInvoicesDeps<A>) {
  const invoices = new Map<string, { account: A; invoice: FakeAsaasInvoice }>();
  const fiscal = new Map<string, Json | null>(deps.accounts.map((a) => [a.apiKey, { ...COMPLETE_FISCAL_INFO }]));
  const outcome = new Map<string, FakeInvoiceOutcome>();
  let numberSeq = 0;

  const sendInvoiceEvent = (id: string, event: string, o: { eventId?: string; token?: string | null } = {}) => {
    const stored = invoices.get(id);
    if (!stored) throw new Error(`unknown invoice ${id}`);
    return deliver(stored.account, event, stored.invoice, o);
  };
  const deliver = (account: A, event: string, invoice: FakeAsaasInvoice, o: { eventId?: string; token?: string | null } = {}) =>
    deps.deliver(account, event, { invoice: { ...invoice } }, invoice.id, o);

  function invoiceOf(account: A, id: string) {
    const stored = invoices.get(id);
    if (!stored || stored.account !== account || stored.invoice.deleted) throw new InvoiceFail(404, 'not_found', 'Nota fiscal não encontrada.');
    return stored.invoice;
  }

  /** The fields POST and PUT share, checked as Asaas does. */
  function fieldsOf(body: Json, value: number): Json {
    const description = typeof body.serviceDescription === 'string' ? body.serviceDescription.trim() : '';
    if (!description) throw new InvoiceFail(400, 'invalid_serviceDescription', 'Informe a descrição dos serviços da nota fiscal.');
    if (!body.municipalServiceId && !body.municipalServiceCode) throw new InvoiceFail(400, 'invalid_municipalService', 'Informe o serviço municipal da nota fiscal.');
    if (typeof body.municipalServiceName !== 'string' || !body.municipalServiceName.trim()) throw new InvoiceFail(400, 'invalid_municipalServiceName', 'Informe o nome do serviço municipal.');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(String(body.effectiveDate ?? ''))) throw new InvoiceFail(400, 'invalid_effectiveDate', 'Informe a data de emissão da nota fiscal.');
    const taxes = (body.taxes ?? null) as Json | null;
    if (!taxes || typeof taxes.retainIss !== 'boolean' || typeof taxes.iss !== 'number') throw new InvoiceFail(400, 'invalid_taxes', 'Informe os impostos da nota fiscal.');
    const given = typeof body.value === 'number' ? body.value : value;
    if (!(given > 0)) throw new InvoiceFail(400, 'invalid_value', 'O valor da nota fiscal deve ser maior que zero.');
    return {
      serviceDescription: description,
      observations: body.observations ?? '',
      value: given,
      deductions: typeof body.deductions === 'number' ? body.deductions : 0,
      effectiveDate: body.effectiveDate,
      municipalServiceId: body.municipalServiceId ?? null,
      municipalServiceCode: body.municipalServiceCode ?? null,
      municipalServiceName: body.municipalServiceName,
      taxes: { retainIss: taxes.retainIss, iss: taxes.iss, cofins: taxes.cofins ?? 0, csll: taxes.csll ?? 0, inss: taxes.inss ?? 0, ir: taxes.ir ?? 0, pis: taxes.pis ?? 0 },
    };
  }

  /** The account's API routes for invoices and fiscal info; false when the route is not one of them. */
  function route(account: A, method: string, u: URL, body: unknown, res: ServerResponse, send: (res: ServerResponse, status: number, body: unknown) => void): boolean {
    const path = u.pathname.replace(/^\/api\/v3/, '');
    const r = `${method} ${path}`;
    const b = (body ?? {}) as Json;
    if (r === 'GET /fiscalInfo') {
      const info = fiscal.get(account.apiKey);
      if (!info) throw new InvoiceFail(404, 'not_found', 'Informações fiscais não cadastradas.');
      send(res, 200, { object: 'fiscalInfo', ...info });
      return true;
    }
    if (r === 'GET /fiscalInfo/municipalOptions') {
      send(res, 200, MUNICIPAL_OPTIONS);
      return true;
    }
    if (r === 'GET /fiscalInfo/municipalServices') {
      const words = fold(u.searchParams.get('description')).split(/\s+/).filter(Boolean);
      const all = MUNICIPAL_SERVICES.filter((s) => words.every((w) => fold(s.description).includes(w)));
      const offset = Math.max(0, Number(u.searchParams.get('offset')) || 0);
      const limit = Math.min(100, Math.max(1, Number(u.searchParams.get('limit')) || 10));
      const data = all.slice(offset, offset + limit);
      send(res, 200, { object: 'list', hasMore: offset + data.length < all.length, totalCount: all.length, limit, offset, data });
      return true;
    }
    if (r === 'POST /invoices') {
      // Of a payment, or of a whole installment plan.
      const payment = b.installment ? deps.installmentOf(account, String(b.installment)) : deps.paymentOf(account, String(b.payment ?? ''));
      if (!payment) throw new InvoiceFail(400, 'invalid_payment', 'Cobrança não encontrada.');
      if (!fiscal.get(account.apiKey)) throw new InvoiceFail(400, 'invalid_fiscalInfo', 'Cadastre as informações fiscais antes de emitir notas fiscais.');
      const invoice: FakeAsaasInvoice = {
        object: 'invoice',
        id: `inv_${randomBytes(8).toString('hex')}`,
        status: 'SCHEDULED',
        customer: payment.customer,
        type: 'NFSE',
        statusDescription: null,
        payment: b.installment ? null : String(b.payment),
        installment: b.installment ? String(b.installment) : null,
        externalReference: typeof b.externalReference === 'string' ? b.externalReference : null,
        pdfUrl: null,
        xmlUrl: null,
        rpsSerie: null,
        rpsNumber: null,
        number: null,
        validationCode: null,
        estimatedTaxesDescription: null,
        deleted: false,
        ...fieldsOf(b, payment.value),
      };
      invoices.set(invoice.id, { account, invoice });
      deps.afterAnswer(res, [() => deliver(account, 'INVOICE_CREATED', invoice)]);
      send(res, 200, invoice);
      return true;
    }
    if (r === 'GET /invoices') {
      const ref = u.searchParams.get('externalReference');
      const pay = u.searchParams.get('payment');
      const data = [...invoices.values()]
        .filter((s) => s.account === account && !s.invoice.deleted && (!ref || s.invoice.externalReference === ref) && (!pay || s.invoice.payment === pay))
        .map((s) => s.invoice);
      send(res, 200, { object: 'list', hasMore: false, totalCount: data.length, limit: 100, offset: 0, data });
      return true;
    }
    const one = /^(GET|PUT) \/invoices\/([^/]+)$/.exec(r);
    if (one) {
      const invoice = invoiceOf(account, one[2]!);
      if (one[1] === 'PUT') {
        if (invoice.status !== 'SCHEDULED' && invoice.status !== 'ERROR') throw new InvoiceFail(400, 'invalid_action', 'Só notas agendadas ou com erro podem ser alteradas.');
        Object.assign(invoice, fieldsOf(b, Number(invoice.value)));
      }
      send(res, 200, invoice);
      return true;
    }
    const action = /^POST \/invoices\/([^/]+)\/(authorize|cancel)$/.exec(r);
    if (action) {
      const invoice = invoiceOf(account, action[1]!);
      const o = outcome.get(account.apiKey) ?? {};
      if (action[2] === 'authorize') {
        if (invoice.status !== 'SCHEDULED' && invoice.status !== 'ERROR') throw new InvoiceFail(400, 'invalid_action', 'Esta nota fiscal não pode ser emitida.');
        invoice.status = 'SYNCHRONIZED';
        invoice.statusDescription = null;
        const answer = { ...invoice };
        const events: (() => Promise<unknown>)[] = [() => deliver(account, 'INVOICE_SYNCHRONIZED', invoice)];
        if (o.error) {
          invoice.status = 'ERROR';
          invoice.statusDescription = o.error;
          events.push(() => deliver(account, 'INVOICE_ERROR', invoice));
        } else {
          const number = String(++numberSeq).padStart(8, '0');
          Object.assign(invoice, {
            status: 'AUTHORIZED',
            number,
            rpsNumber: number,
            rpsSerie: 'E',
            validationCode: randomBytes(4).toString('hex').toUpperCase(),
            pdfUrl: `${deps.baseUrl()}/nf/${invoice.id}.pdf`,
            xmlUrl: `${deps.baseUrl()}/nf/${invoice.id}.xml`,
          });
          events.push(() => deliver(account, 'INVOICE_AUTHORIZED', invoice));
        }
        deps.afterAnswer(res, events);
        send(res, 200, answer);
        return true;
      }
      if (invoice.status === 'SCHEDULED' || invoice.status === 'ERROR') {
        // Never reached the municipality: cancelled at once.
        invoice.status = 'CANCELED';
        deps.afterAnswer(res, [() => deliver(account, 'INVOICE_CANCELED', invoice)]);
        send(res, 200, invoice);
        return true;
      }
      if (invoice.status !== 'AUTHORIZED' && invoice.status !== 'CANCELLATION_DENIED') throw new InvoiceFail(400, 'invalid_action', 'Esta nota fiscal não pode ser cancelada.');
      invoice.status = 'PROCESSING_CANCELLATION';
      const answer = { ...invoice };
      const events: (() => Promise<unknown>)[] = [() => deliver(account, 'INVOICE_PROCESSING_CANCELLATION', invoice)];
      if (o.denyCancellation) {
        invoice.status = 'CANCELLATION_DENIED';
        invoice.statusDescription = 'O prazo para cancelamento desta nota pela prefeitura terminou.';
        events.push(() => deliver(account, 'INVOICE_CANCELLATION_DENIED', invoice));
      } else {
        invoice.status = 'CANCELED';
        events.push(() => deliver(account, 'INVOICE_CANCELED', invoice));
      }
      deps.afterAnswer(res, events);
      send(res, 200, answer);
      return true;
    }
    return false;
  }

  /** The issued note's files: GET /nf/{id}.pdf | .xml; false when not one. */
  function file(pathname: string, res: ServerResponse): boolean {
    const m = /^\/nf\/([^/]+)\.(pdf|xml)$/.exec(pathname);
    const stored = m ? invoices.get(m[1]!) : undefined;
    if (!stored || !stored.invoice.number) return false;
    const i = stored.invoice;
    if (m![2] === 'xml') {
      res.writeHead(200, { 'Content-Type': 'application/xml; charset=utf-8' }).end(
        `<?xml version="1.0" encoding="UTF-8"?><NFSe><Numero>${String(i.number)}</Numero><Valor>${Number(i.value).toFixed(2)}</Valor><Servico>${fold(i.serviceDescription).replace(/[<>&]/g, '')}</Servico></NFSe>`,
      );
    } else {
      // A minimal PDF with the note's number: enough for a browser to open it.
      const text = `NFS-e ${String(i.number)} - R$ ${Number(i.value).toFixed(2)} (Asaas simulado)`;
      const stream = `BT /F1 14 Tf 40 780 Td (${text.replace(/[()\\]/g, '')}) Tj ET`;
      const pdf = `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj\n4 0 obj<</Length ${stream.length}>>stream\n${stream}\nendstream endobj\n5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n`;
      res.writeHead(200, { 'Content-Type': 'application/pdf' }).end(pdf);
    }
    return true;
  }

  const setFiscalInfo = (apiKey: string, info: Json | null) => void fiscal.set(apiKey, info ? { ...info } : null);
  const setInvoiceOutcome = (apiKey: string, o: FakeInvoiceOutcome) => void outcome.set(apiKey, { ...(outcome.get(apiKey) ?? {}), ...o });

  /** POST /nfse/controle { apiKey, fiscalInfo?, error?, denyCancellation? } (the demo and the journeys). */
  function control(body: Json): Json {
    const apiKey = String(body.apiKey ?? '');
    if (!deps.accounts.some((a) => a.apiKey === apiKey)) throw new InvoiceFail(404, 'not_found', 'Conta não encontrada.');
    if ('fiscalInfo' in body) setFiscalInfo(apiKey, (body.fiscalInfo as Json | null) ?? null);
    if ('error' in body || 'denyCancellation' in body) {
      setInvoiceOutcome(apiKey, {
        ...('error' in body ? { error: (body.error as string | null) ?? null } : {}),
        ...('denyCancellation' in body ? { denyCancellation: !!body.denyCancellation } : {}),
      });
    }
    return { fiscalInfo: fiscal.get(apiKey) ?? null, ...(outcome.get(apiKey) ?? {}) };
  }

  return {
    route,
    file,
    control,
    invoice: (id: string) => invoices.get(id)?.invoice,
    /** Every invoice of every account, in creation order. */
    invoices: () => [...invoices.values()].map((s) => s.invoice),
    setFiscalInfo,
    setInvoiceOutcome,
    sendInvoiceEvent,
  };
}
