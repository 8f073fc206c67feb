// `deno test` (npm test runs it; npm run test:functions alone): the buyer's fields and card as
// create-asaas-charge and create-asaas-subscription both read them, and Asaas's refusals as answers.
// The functions themselves run against the fake Asaas in tests/integration/product/{payments,subscriptions-asaas}.test.ts.
import assert from 'node:assert/strict';
import { AsaasError } from './asaas.ts';
import { asaasFailure, billingTypeOf, cardOf, customerOf } from './checkout.ts';
import { clientAddress, HttpError } from './http.ts';

const CUSTOMER = { name: ' Aluna Teste ', email: 'ALUNA@Exemplo.com.br', cpfCnpj: '529.982.247-25', phone: '(11) 98888-7777' };
const CARD = { holderName: 'ALUNA', number: '5162 3062 1937 8829', expiryMonth: '05', expiryYear: '2031', ccv: '831' };
const HOLDER = { name: 'Aluna', email: 'a@b.com', cpfCnpj: '11.222.333/0001-81', postalCode: '01310-100', addressNumber: 1000, phone: '11988887777' };

/** The HttpError a call throws: [status, message, field]. */
function refusal(run: () => unknown): [number, string, unknown] {
  try {
    run();
  } catch (e) {
    if (e instanceof HttpError) return [e.status, e.message, e.extra.field];
    throw e;
  }
  throw new Error('no refusal');
}

Deno.test('the customer, normalized as Asaas takes it', () => {
  assert.deepEqual(customerOf({ customer: CUSTOMER }), { name: 'Aluna Teste', email: 'aluna@exemplo.com.br', cpfCnpj: '52998224725', phone: '11988887777' });
  assert.deepEqual(refusal(() => customerOf({})), [400, 'Campos obrigatórios', 'customer.name']);
  assert.deepEqual(refusal(() => customerOf({ customer: { ...CUSTOMER, cpfCnpj: '111.111.111-11' } })), [400, 'CPF inválido', 'customer.cpfCnpj']);
  assert.deepEqual(refusal(() => customerOf({ customer: { ...CUSTOMER, email: 'sem-arroba' } })), [400, 'E-mail inválido', 'customer.email']);
  assert.deepEqual(refusal(() => customerOf({ customer: { ...CUSTOMER, phone: '123' } })), [400, 'Telefone inválido', 'customer.phone']);
  assert.deepEqual(refusal(() => customerOf({ customer: { ...CUSTOMER, name: 'x'.repeat(201) } })), [400, 'Campo muito longo', 'customer.name']);
});

Deno.test('the card and its holder (a CNPJ holder too), digits only', () => {
  const { creditCard, creditCardHolderInfo } = cardOf({ creditCard: CARD, creditCardHolderInfo: HOLDER });
  assert.equal(creditCard.number, '5162306219378829');
  assert.deepEqual(creditCardHolderInfo, { name: 'Aluna', email: 'a@b.com', cpfCnpj: '11222333000181', postalCode: '01310100', addressNumber: '1000', phone: '11988887777' });
  const cases: [Record<string, unknown>, string, string][] = [
    [{ creditCard: { ...CARD, ccv: '' }, creditCardHolderInfo: HOLDER }, 'Dados do cartão obrigatórios', 'creditCard.ccv'],
    [{ creditCard: CARD }, 'Dados do cartão obrigatórios', 'creditCardHolderInfo.name'],
    [{ creditCard: { ...CARD, number: '4111' }, creditCardHolderInfo: HOLDER }, 'Número do cartão inválido', 'creditCard.number'],
    [{ creditCard: { ...CARD, expiryMonth: '13' }, creditCardHolderInfo: HOLDER }, 'Mês de validade inválido', 'creditCard.expiryMonth'],
    [{ creditCard: { ...CARD, expiryYear: '31x' }, creditCardHolderInfo: HOLDER }, 'Ano de validade inválido', 'creditCard.expiryYear'],
    [{ creditCard: { ...CARD, ccv: '12' }, creditCardHolderInfo: HOLDER }, 'CVV inválido', 'creditCard.ccv'],
    [{ creditCard: CARD, creditCardHolderInfo: { ...HOLDER, postalCode: '0131' } }, 'CEP inválido', 'creditCardHolderInfo.postalCode'],
  ];
  for (const [body, message, field] of cases) assert.deepEqual(refusal(() => cardOf(body)), [400, message, field]);
});

Deno.test('the billing type', () => {
  assert.equal(billingTypeOf({ billing_type: 'PIX' }), 'PIX');
  assert.deepEqual(refusal(() => billingTypeOf({ billing_type: 'pix' })), [400, 'Forma de pagamento inválida', 'billing_type']);
});

Deno.test("Asaas's refusal: its words with 400, anything else 502, other errors as they are", () => {
  const quiet = console.error;
  console.error = () => undefined;
  try {
    assert.deepEqual(refusal(() => asaasFailure(new AsaasError(400, 'Cartão recusado.', 'invalid_creditCard'), 'the charge')), [400, 'Cartão recusado.', undefined]);
    assert.deepEqual(refusal(() => asaasFailure(new AsaasError(401, 'Chave inválida', 'invalid_access_token'), 'the charge'))[0], 502);
    assert.deepEqual(refusal(() => asaasFailure(new AsaasError(0, null, null), 'the charge'))[0], 502);
    assert.throws(() => asaasFailure(new TypeError('bug'), 'the charge'), TypeError);
  } finally {
    console.error = quiet;
  }
});

Deno.test("the caller's address: CF-Connecting-IP first (the platform's edge writes it), then the LAST X-Forwarded-For (the nearest proxy's)", () => {
  const req = (headers: Record<string, string>) => new Request('http://localhost/', { headers });
  assert.equal(clientAddress(req({ 'cf-connecting-ip': '198.51.100.7', 'x-forwarded-for': '203.0.113.9, 198.51.100.7' })), '198.51.100.7');
  // A client's own X-Forwarded-For stays in front of what the proxy appended: never the first entry.
  assert.equal(clientAddress(req({ 'x-forwarded-for': ' 203.0.113.9 , 10.0.0.1 ' })), '10.0.0.1');
  assert.equal(clientAddress(req({ 'cf-connecting-ip': ' ', 'x-forwarded-for': '203.0.113.9' })), '203.0.113.9');
  assert.equal(clientAddress(req({ 'x-forwarded-for': ' , ' })), undefined);
  assert.equal(clientAddress(req({})), undefined);
});
