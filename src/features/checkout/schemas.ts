// The checkout form (SPEC §5): name, e-mail, CPF and phone always; the card fields for Cartão, with
// month ≤ 2 characters, year ≤ 4 and CVV ≤ 4, plus the holder's CEP and address number Asaas requires.
// The card is checked here before Asaas is called (issue 46): the number's check digit (Luhn) and
// length, and an expiry that is a real month, not past, not decades ahead.
import { z } from '@/platform/zod';
import { isValidCpf, isValidPhone, onlyDigits } from '@/utils/format';

export const REQUIRED = 'Campos obrigatórios';
export const CARD_REQUIRED = 'Dados do cartão obrigatórios';

const required = (message: string) => z.string().trim().min(1, message);

export const checkoutSchema = z
  .object({
    method: z.enum(['PIX', 'BOLETO', 'CREDIT_CARD']),
    name: required('Informe seu nome').max(200, 'Nome muito longo'),
    email: required('Informe seu e-mail').email('E-mail inválido'),
    cpf: required('Informe seu CPF').refine(isValidCpf, 'CPF inválido'),
    phone: required('Informe seu telefone').refine(isValidPhone, 'Telefone inválido. Use o formato (00) 00000-0000'),
    holderName: z.string().trim(),
    cardNumber: z.string().trim(),
    expiryMonth: z.string().trim().max(2, 'Mês com até 2 dígitos'),
    expiryYear: z.string().trim().max(4, 'Ano com até 4 dígitos'),
    ccv: z.string().trim().max(4, 'CVV com até 4 dígitos'),
    postalCode: z.string().trim(),
    addressNumber: z.string().trim().max(20, 'Número muito longo'),
    installments: z.string(),
  })
  .superRefine((v, ctx) => {
    if (v.method !== 'CREDIT_CARD') return;
    const need = (ok: boolean, path: string, message: string) => ok || ctx.addIssue({ code: 'custom', path: [path], message });
    need(!!v.holderName, 'holderName', 'Informe o nome impresso no cartão');
    need(isValidCardNumber(v.cardNumber), 'cardNumber', v.cardNumber ? 'Número do cartão inválido. Confira os dígitos.' : 'Informe o número do cartão');
    const month = Number(v.expiryMonth);
    const monthOk = /^\d{1,2}$/.test(v.expiryMonth) && month >= 1 && month <= 12;
    need(monthOk, 'expiryMonth', v.expiryMonth ? 'Mês inválido. Use de 01 a 12.' : 'Informe o mês');
    const year = cardExpiryYear(v.expiryYear);
    need(year !== null, 'expiryYear', v.expiryYear ? 'Ano inválido. Use 4 dígitos (ex.: 2030).' : 'Informe o ano');
    if (year !== null) {
      const { year: thisYear, month: thisMonth } = brazilYearMonth(new Date());
      // A card is valid through the last day of its month; none is issued for more than 20 years.
      need(year >= thisYear, 'expiryYear', 'Cartão vencido. Confira o ano de validade.');
      need(year <= thisYear + 20, 'expiryYear', 'Ano inválido. Confira a validade do cartão.');
      if (monthOk && year === thisYear) need(month >= thisMonth, 'expiryMonth', 'Cartão vencido. Confira o mês de validade.');
    }
    need(/^\d{3,4}$/.test(v.ccv), 'ccv', v.ccv ? 'CVV inválido' : 'Informe o CVV');
    need(onlyDigits(v.postalCode).length === 8, 'postalCode', v.postalCode ? 'CEP inválido' : 'Informe o CEP do titular');
    need(!!v.addressNumber, 'addressNumber', 'Informe o número do endereço');
  });

export type CheckoutValues = z.infer<typeof checkoutSchema>;

/** 13 to 19 digits whose last is the Luhn check digit of the others (every card brand Asaas takes). */
export function isValidCardNumber(value: string): boolean {
  const digits = value.replace(/[\s-]/g, '');
  if (!/^\d{13,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** The expiry year as 4 digits ('31' is 2031), or null when it is not 2 or 4 digits. */
export function cardExpiryYear(value: string): number | null {
  if (/^\d{4}$/.test(value)) return Number(value);
  if (/^\d{2}$/.test(value)) return 2000 + Number(value);
  return null;
}

/** This year and month in Brazil (where the buyer and the card's issuer are). */
function brazilYearMonth(now: Date): { year: number; month: number } {
  const [year, month] = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit' }).format(now).split('-');
  return { year: Number(year), month: Number(month) };
}

export const CARD_FIELDS = ['holderName', 'cardNumber', 'expiryMonth', 'expiryYear', 'ccv', 'postalCode', 'addressNumber'] as const;
export const BUYER_FIELDS = ['name', 'email', 'cpf', 'phone'] as const;

/** What a refused submit left empty, as SPEC §5's toast: the buyer's data first, then the card's. */
export function missingFields(values: CheckoutValues, errors: Partial<Record<keyof CheckoutValues, unknown>>): { title: string; description: string } | null {
  if (BUYER_FIELDS.some((f) => !values[f].trim())) return { title: REQUIRED, description: 'Preencha nome, e-mail, CPF e telefone.' };
  if (values.method === 'CREDIT_CARD' && CARD_FIELDS.some((f) => errors[f] && !values[f].trim())) return { title: CARD_REQUIRED, description: 'Preencha todos os dados do cartão e do titular.' };
  return null;
}

/** 'em até 6x de R$ 49,50' is price / max_installments (SPEC §9), two decimals. */
export function installmentValue(price: number, count: number): number {
  return Math.round((price / count) * 100) / 100;
}

/** "Tem um cupom?": the code as typed (the database matches it ignoring case and says why it does not apply). */
export const couponCodeSchema = z.object({
  code: z.string().trim().min(1, 'Digite o código do cupom').max(40, 'Cupom não encontrado.'),
});
export type CouponCodeValues = z.infer<typeof couponCodeSchema>;
