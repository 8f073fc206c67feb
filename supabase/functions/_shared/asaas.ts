// The slice of the Asaas API v3 we call (customers and payments), with its error format turned into
// one AsaasError. Request bodies may hold card data: they are sent and forgotten, never logged, and
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
}

export class AsaasClient {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
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

  createPayment(body: Record<string, unknown>): Promise<AsaasPayment> {
    return this.call<AsaasPayment>('POST', '/payments', body);
  }

  /** How to pay a pending PIX (copia e cola) or boleto (linha digitável); null when Asaas has none. */
  async paymentCode(payment: Pick<AsaasPayment, 'id' | 'billingType'>): Promise<string | null> {
    const id = encodeURIComponent(payment.id);
    if (payment.billingType === 'PIX') return (await this.call<{ payload?: string }>('GET', `/payments/${id}/pixQrCode`)).payload ?? null;
    if (payment.billingType === 'BOLETO') return (await this.call<{ identificationField?: string }>('GET', `/payments/${id}/identificationField`)).identificationField ?? null;
    return null;
  }
}

/** YYYY-MM-DD in Brazil's time, `days` from today: the due date Asaas expects. */
export function dueDateInBrazil(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
}
