// The slice of the Asaas API v3 we call (customers, payments, their refunds and removal, subscriptions and their
// invoices, and the service invoices (NFS-e) with the account's fiscal information), with its error format turned into one AsaasError. Request bodies may hold card data: they are sent and forgotten, never logged, and
// no error message here ever includes them.

export type AsaasEnvironment = 'sandbox' | 'production';

const DEFAULT_BASE: Record<AsaasEnvironment, string> = {
  sandbox: 'https://api-sandbox.asaas.com/v3',
  production: 'https://api.asaas.com/v3',
};

/** Asaas's base URL for the integration's environment; ASAAS_*_URL point local runs at the fake. */
export function asaasBaseUrl(environment: AsaasEnvironment): string {
  const override = Deno.env.get(environment === 'production' ? 'ASAAS_PRODUCTION_URL' : 'ASAAS_SANDBOX_URL');
  return (override || DEFAULT_BASE[environment]).replace(/\/+$/, '');
}

export class AsaasError extends Error {
  constructor(
    /** Asaas's HTTP status; 0 when Asaas could not be reached. */
    readonly status: number,
    /** The first `errors[].description` Asaas gave, meant for the payer (pt-BR). */
    readonly description: string | null,
    readonly code: string | null,
  ) {
    super(description ?? `Asaas respondeu ${status}`);
  }
}

export interface AsaasCustomer {
  id: string;
  name: string;
  cpfCnpj: string;
}

export interface AsaasPayment {
  id: string;
  customer: string;
  status: string;
  invoiceUrl: string;
  /** Of this payment: one installment's value in an installment plan. */
  value: number;
  billingType: string;
  externalReference: string | null;
  /** The installment plan's id, on each of its payments. */
  installment?: string | null;
  installmentNumber?: number | null;
  /** aaaa-mm-dd. */
  dueDate?: string;
  /** A boleto's PDF. */
  bankSlipUrl?: string | null;
  /** Asaas's record of each refund (PENDING, CANCELLED or DONE), once there is one. */
  refunds?: { dateCreated: string; status: string; value: number; description: string | null }[] | null;
  /** The subscription's id, on each of its invoices. */
  subscription?: string | null;
  deleted?: boolean;
  /** The charge's split (issue 43): each share's id, wallet and status (PENDING, AWAITING_CREDIT, DONE, CANCELLED, REFUNDED...). */
  split?: { id: string; walletId: string; status: string }[] | null;
}

export type AsaasCycle = 'MONTHLY' | 'YEARLY';

export interface AsaasSubscription {
  id: string;
  customer: string;
  /** ACTIVE, INACTIVE or EXPIRED. */
  status: string;
  value: number;
  cycle: string;
  billingType: string;
  /** aaaa-mm-dd: the due date of the next invoice Asaas will create. */
  nextDueDate: string;
  externalReference: string | null;
  deleted: boolean;
}

/** Asaas's list answer (GET /subscriptions/{id}/payments and the like). */
export interface AsaasList<T> {
  object: 'list';
  hasMore: boolean;
  totalCount: number;
  limit: number;
  offset: number;
  data: T[];
}

export class AsaasClient {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  private async call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: { access_token: this.apiKey, 'Content-Type': 'application/json', 'User-Agent': 'plataforma-cursos' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(20_000),
      });
    } catch {
      throw new AsaasError(0, null, null);
    }
    const text = await res.text();
    let data: unknown = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON (a proxy's error page): only the status is useful.
    }
    if (!res.ok) {
      const first = (data as { errors?: { code?: string; description?: string }[] } | null)?.errors?.[0];
      throw new AsaasError(res.status, first?.description ?? null, first?.code ?? null);
    }
    return data as T;
  }

  /** The account's customer with this CPF/CNPJ, created when there is none. */
  async findOrCreateCustomer(c: { name: string; email: string; cpfCnpj: string; phone: string }): Promise<AsaasCustomer> {
    const found = await this.call<{ data: AsaasCustomer[] }>('GET', `/customers?cpfCnpj=${encodeURIComponent(c.cpfCnpj)}`);
    if (found.data?.[0]) return found.data[0];
    return this.call<AsaasCustomer>('POST', '/customers', {
      name: c.name,
      email: c.email,
      cpfCnpj: c.cpfCnpj,
      mobilePhone: c.phone,
      notificationDisabled: false,
    });
  }

  /** "Recuperar WalletId": the wallets of the account this key opens (issue 43: an affiliate proves theirs). */
  wallets(): Promise<{ data?: { id: string }[] }> {
    return this.call('GET', '/wallets/');
  }

  createPayment(body: Record<string, unknown>): Promise<AsaasPayment> {
    return this.call<AsaasPayment>('POST', '/payments', body);
  }

  /**
   * Refunds a confirmed payment in full (POST /payments/{id}/refund): Asaas answers the payment (REFUNDED,
   * or on its way there) and sends PAYMENT_REFUNDED to the webhook when the money goes back.
   */
  refundPayment(id: string, { description }: { description?: string | null } = {}): Promise<AsaasPayment> {
    return this.call<AsaasPayment>('POST', `/payments/${encodeURIComponent(id)}/refund`, description ? { description } : {});
  }

  /** DELETE /payments/{id}: removes a pending or overdue charge (Asaas then sends PAYMENT_DELETED); refused once paid. */
  deletePayment(id: string): Promise<{ deleted: boolean; id: string }> {
    return this.call<{ deleted: boolean; id: string }>('DELETE', `/payments/${encodeURIComponent(id)}`);
  }

  /**
   * POST /subscriptions: Asaas creates the subscription and its first invoice (due on nextDueDate). With card
   * data the card is validated now and charged on that due date: at once when it is today. Its invoices'
   * events (PAYMENT_*, carrying `subscription`) and SUBSCRIPTION_* events reach the webhook.
   */
  createSubscription(body: {
    customer: string;
    billingType: string;
    value: number;
    nextDueDate: string;
    cycle: AsaasCycle;
    description: string;
    externalReference: string;
    callback?: { successUrl: string; autoRedirect: boolean };
    creditCard?: Record<string, string>;
    creditCardHolderInfo?: Record<string, string>;
    remoteIp?: string;
  }): Promise<AsaasSubscription> {
    return this.call<AsaasSubscription>('POST', '/subscriptions', body);
  }

  /** The subscription's invoices (GET /subscriptions/{id}/payments), the first page of up to 100. */
  subscriptionPayments(id: string): Promise<AsaasList<AsaasPayment>> {
    return this.call<AsaasList<AsaasPayment>>('GET', `/subscriptions/${encodeURIComponent(id)}/payments?limit=100`);
  }

  /** DELETE /subscriptions/{id}: no more invoices; Asaas removes the unpaid ones and sends SUBSCRIPTION_DELETED. */
  deleteSubscription(id: string): Promise<{ deleted: boolean; id: string }> {
    return this.call<{ deleted: boolean; id: string }>('DELETE', `/subscriptions/${encodeURIComponent(id)}`);
  }

  /** How to pay a pending PIX (copia e cola) or boleto (linha digitável); null when Asaas has none. */
  async paymentCode(payment: Pick<AsaasPayment, 'id' | 'billingType'>): Promise<string | null> {
    const id = encodeURIComponent(payment.id);
    if (payment.billingType === 'PIX') return (await this.call<{ payload?: string }>('GET', `/payments/${id}/pixQrCode`)).payload ?? null;
    if (payment.billingType === 'BOLETO') return (await this.call<{ identificationField?: string }>('GET', `/payments/${id}/identificationField`)).identificationField ?? null;
    return null;
  }

  /**
   * POST /invoices: schedules the NFS-e of a payment, or of an installment plan (Asaas takes the service taker
   * from its customer); Asaas answers it SCHEDULED and sends INVOICE_CREATED. externalReference is our invoice id.
   */
  createInvoice(body: AsaasInvoiceFields & ({ payment: string } | { installment: string }) & { externalReference: string }): Promise<AsaasInvoice> {
    return this.call<AsaasInvoice>('POST', '/invoices', body);
  }

  /** PUT /invoices/{id}: new fields for a scheduled invoice or one with an error, before it is issued again. */
  updateInvoice(id: string, body: AsaasInvoiceFields): Promise<AsaasInvoice> {
    return this.call<AsaasInvoice>('PUT', `/invoices/${encodeURIComponent(id)}`, body);
  }

  /** The account's invoices with this externalReference (ours): a create whose answer was lost is found here. */
  async invoicesByReference(externalReference: string): Promise<AsaasInvoice[]> {
    return (await this.call<AsaasList<AsaasInvoice>>('GET', `/invoices?externalReference=${encodeURIComponent(externalReference)}`)).data ?? [];
  }

  /** POST /invoices/{id}/authorize: issue now at the municipality (INVOICE_AUTHORIZED or INVOICE_ERROR follow). */
  authorizeInvoice(id: string): Promise<AsaasInvoice> {
    return this.call<AsaasInvoice>('POST', `/invoices/${encodeURIComponent(id)}/authorize`, {});
  }

  /** POST /invoices/{id}/cancel: INVOICE_CANCELED, or INVOICE_CANCELLATION_DENIED when the municipality refuses. */
  cancelInvoice(id: string): Promise<AsaasInvoice> {
    return this.call<AsaasInvoice>('POST', `/invoices/${encodeURIComponent(id)}/cancel`, {});
  }

  /** GET /fiscalInfo: the account's fiscal information; null when none was registered (404). */
  async fiscalInfo(): Promise<AsaasFiscalInfo | null> {
    try {
      return await this.call<AsaasFiscalInfo>('GET', '/fiscalInfo');
    } catch (e) {
      if (e instanceof AsaasError && e.status === 404) return null;
      throw e;
    }
  }

  /** GET /fiscalInfo/municipalOptions: what the account's municipality requires. */
  municipalOptions(): Promise<AsaasMunicipalOptions> {
    return this.call<AsaasMunicipalOptions>('GET', '/fiscalInfo/municipalOptions');
  }

  /** GET /fiscalInfo/municipalServices: the municipality's services, searched by description. */
  municipalServices(description: string, offset = 0, limit = 20): Promise<AsaasList<AsaasMunicipalService>> {
    const q = new URLSearchParams({ description, offset: String(offset), limit: String(limit) });
    return this.call<AsaasList<AsaasMunicipalService>>('GET', `/fiscalInfo/municipalServices?${q}`);
  }
}

/** What an invoice says, as POST /invoices and PUT /invoices/{id} take it. */
export interface AsaasInvoiceFields {
  serviceDescription: string;
  observations: string;
  value: number;
  deductions: number;
  /** aaaa-mm-dd: the day Asaas issues it. */
  effectiveDate: string;
  municipalServiceId?: string;
  municipalServiceCode?: string;
  municipalServiceName: string;
  taxes: { retainIss: boolean; iss: number; cofins: number; csll: number; inss: number; ir: number; pis: number };
}

export type AsaasInvoiceStatus = 'SCHEDULED' | 'SYNCHRONIZED' | 'AUTHORIZED' | 'PROCESSING_CANCELLATION' | 'CANCELED' | 'CANCELLATION_DENIED' | 'ERROR';

export interface AsaasInvoice extends AsaasInvoiceFields {
  id: string;
  status: AsaasInvoiceStatus;
  payment: string | null;
  installment: string | null;
  customer: string | null;
  externalReference: string | null;
  /** The municipality's message for an error or a denied cancellation. */
  statusDescription: string | null;
  number: string | null;
  pdfUrl: string | null;
  xmlUrl: string | null;
}

export interface AsaasFiscalInfo {
  email?: string | null;
  municipalInscription?: string | null;
  simplesNacional?: boolean | null;
  rpsSerie?: string | null;
  rpsNumber?: number | null;
  specialTaxRegime?: string | null;
  serviceListItem?: string | null;
  cnae?: string | null;
  username?: string | null;
  passwordSent?: boolean;
  accessTokenSent?: boolean;
  certificateSent?: boolean;
}

export interface AsaasMunicipalOptions {
  authenticationType: 'CERTIFICATE' | 'TOKEN' | 'USER_AND_PASSWORD';
  supportsCancellation: boolean;
  usesSpecialTaxRegimes: boolean;
  usesServiceListItem: boolean;
  specialTaxRegimesList?: { label: string; value: string }[];
  municipalInscriptionHelp?: string | null;
}

export interface AsaasMunicipalService {
  id: string;
  description: string;
  issTax: number;
}

/** YYYY-MM-DD in Brazil's time, `days` from today: the due date Asaas expects. */
export function dueDateInBrazil(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
}
