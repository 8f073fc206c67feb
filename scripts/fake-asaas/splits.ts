// The fake Asaas's payment split (issue 43), as Asaas's API takes it on POST /payments and /subscriptions:
// `split: [{ walletId, fixedValue | percentualValue | totalFixedValue }]`. Each walletId must be an Asaas
// wallet (here: the known list below, or one added with addWallet); the total may not pass the charge's
// netValue (the fake charges no fees, so its value) nor 100%. A payment carries its split list with Asaas's
// fields (id, walletId, fixedValue, percentualValue, totalValue, status): PENDING until paid, DONE at
// settlement (a card: AWAITING_CREDIT, Asaas credits it later), REFUNDED or CANCELLED when the payment is
// refunded. server.ts sends PAYMENT_SPLIT_DONE per split at settlement, with additionalInfo.splitId.
import { randomUUID } from 'node:crypto';

type Json = Record<string, unknown>;

/**
 * The demo's wallets (seed.sql: the Marketing course's affiliate and co-producer) and the tests', each with the API
 * key of its Asaas account: GET /wallets/ with that key answers the wallet (Asaas's "Recuperar WalletId").
 */
export const KNOWN_WALLETS = [
  { walletId: '0b763922-aa88-4cbe-a567-e3fe8511fa06', apiKey: '$aact_SEGREDO_afiliado_demo' },
  { walletId: '48548710-9baa-4ec1-a11f-9010193527c6', apiKey: '$aact_SEGREDO_coprodutora_demo' },
  { walletId: '7d4c1e2a-5b3f-4e8d-9a6c-2f1b0e9d8c7a', apiKey: '$aact_SEGREDO_afiliado_teste' },
] as const;

export class SplitFail extends Error {
  constructor(
    readonly code: string,
    readonly description: string,
  ) {
    super(description);
  }
}

export interface FakeSplits {
  /** Fake-only: a wallet that exists from now on (a new affiliate's Asaas account), opened by `apiKey` when given. */
  addWallet(walletId: string, apiKey?: string): void;
  hasWallet(walletId: string): boolean;
  /** The wallet of the Asaas account `apiKey` opens, if it is a wallet account. */
  walletOfKey(apiKey: string): string | undefined;
  /** The checked `split` of a charge of `value` in `installments`, per installment; [] when none was sent. */
  parse(split: unknown, value: number, installments: number): (installment: number) => Json[];
}

const money = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null);

export function fakeSplits(): FakeSplits {
  const wallets = new Set<string>(KNOWN_WALLETS.map((w) => w.walletId));
  const keys = new Map<string, string>(KNOWN_WALLETS.map((w) => [w.apiKey, w.walletId]));
  return {
    addWallet: (id, apiKey) => {
      wallets.add(id.toLowerCase());
      if (apiKey) keys.set(apiKey, id.toLowerCase());
    },
    hasWallet: (id) => wallets.has(id.toLowerCase()),
    walletOfKey: (apiKey) => keys.get(apiKey),
    parse(split, value, installments) {
      if (split === undefined || split === null) return () => [];
      if (!Array.isArray(split)) throw new SplitFail('invalid_split', 'O split deve ser uma lista.');
      const totalCents = Math.round(value * 100);
      const eachCents = Math.floor(totalCents / installments);
      let fixedCents = 0;
      let percent = 0;
      const parts = split.map((raw) => {
        const s = (raw ?? {}) as Json;
        const walletId = typeof s.walletId === 'string' ? s.walletId.toLowerCase() : '';
        if (!wallets.has(walletId)) throw new SplitFail('invalid_walletId', `A carteira ${String(s.walletId ?? '')} informada no split não existe.`);
        const fixed = money(s.fixedValue);
        const pct = money(s.percentualValue);
        const total = money(s.totalFixedValue);
        if ([fixed, pct, total].filter((v) => v !== null).length !== 1) {
          throw new SplitFail('invalid_split', 'Informe fixedValue, percentualValue ou totalFixedValue em cada item do split.');
        }
        if (total !== null && installments === 1) throw new SplitFail('invalid_split', 'totalFixedValue só pode ser usado em parcelamentos.');
        fixedCents += fixed !== null ? Math.round(fixed * 100) * installments : total !== null ? Math.round(total * 100) : 0;
        percent += pct ?? 0;
        return { walletId, fixed, pct, total };
      });
      if (percent > 100 || fixedCents + Math.round((totalCents * percent) / 100) > totalCents) {
        throw new SplitFail('invalid_split', 'O valor total do split excede o valor a receber da cobrança.');
      }
      return (n) =>
        parts.map((p) => {
          const cents = n === installments ? totalCents - eachCents * (installments - 1) : eachCents;
          // totalFixedValue is spread over the installments as the charge is: the cents left on the last.
          const totalEach = p.total !== null ? Math.floor(Math.round(p.total * 100) / installments) : 0;
          const valueCents =
            p.fixed !== null ? Math.round(p.fixed * 100)
            : p.pct !== null ? Math.floor((cents * p.pct) / 100)
            : n === installments ? Math.round(p.total! * 100) - totalEach * (installments - 1) : totalEach;
          return {
            id: randomUUID(),
            walletId: p.walletId,
            fixedValue: p.fixed,
            percentualValue: p.pct,
            totalFixedValue: p.total,
            totalValue: valueCents / 100,
            status: 'PENDING',
            refusalReason: null,
          };
        });
    },
  };
}

/** The split's statuses once its payment is paid: DONE for money received, AWAITING_CREDIT for a card. */
export function settleSplits(payment: Json): Json[] {
  const list = (payment.split ?? []) as Json[];
  for (const s of list) s.status = payment.status === 'RECEIVED' ? 'DONE' : 'AWAITING_CREDIT';
  return list.filter((s) => s.status === 'DONE');
}

/** A refunded payment's splits: a settled one is refunded, one not yet paid out is cancelled. */
export function reverseSplits(payment: Json): void {
  for (const s of (payment.split ?? []) as Json[]) s.status = s.status === 'DONE' ? 'REFUNDED' : 'CANCELLED';
}
