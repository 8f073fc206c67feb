// Rate limits of auth, kept in memory (one process; a restart forgets them). RateLimiter is a sliding
// window per key, so other limits (sign-in per address or IP) can reuse it.
import type { IncomingMessage } from 'node:http';
import type { AuthEmailConfig, AuthRateLimits } from '../config.ts';
import { tooManyRequests } from './errors.ts';

const HOUR_MS = 3_600_000;
const FIVE_MINUTES_MS = 300_000;
/** Past this many keys, a record also drops the keys whose window is over (bounded memory). */
const PRUNE_ABOVE = 10_000;

/** At most `limit` events per key in any `windowMs`; a limit or window of 0 means no limit. */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  private get unlimited(): boolean {
    return this.limit <= 0 || this.windowMs <= 0;
  }

  private recent(key: string, now: number): number[] {
    const kept = (this.hits.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (kept.length) this.hits.set(key, kept);
    else this.hits.delete(key);
    return kept;
  }

  /** Milliseconds until `key` may act again; 0 when it may act now. */
  wait(key: string, now = Date.now()): number {
    if (this.unlimited) return 0;
    const recent = this.recent(key, now);
    return recent.length < this.limit ? 0 : recent[recent.length - this.limit]! + this.windowMs - now;
  }

  record(key: string, now = Date.now()): void {
    if (this.unlimited) return;
    if (this.hits.size > PRUNE_ABOVE) for (const k of [...this.hits.keys()]) this.recent(k, now);
    this.hits.set(key, [...this.recent(key, now), now]);
  }
}

/**
 * The kinds of auth e-mail; like GoTrue's *_sent_at columns, each has its own max_frequency gap, but
 * an invite (sent by the service role) has none: GoTrue only counts it against email_sent.
 */
export type EmailKind = 'confirmation' | 'recovery' | 'email_change' | 'invite' | 'reauthentication';

/**
 * GoTrue's limits on auth e-mails, per address: `max_frequency` between two e-mails of one kind and
 * `email_sent` per hour in all. A request is counted whether or not the address has an account, so
 * the answers (200 or 429) never tell which addresses exist.
 */
export function createEmailLimits(config: Pick<AuthEmailConfig, 'maxFrequencyMs' | 'sentPerHour'>) {
  const gap = new RateLimiter(1, config.maxFrequencyMs);
  const hourly = new RateLimiter(config.sentPerHour, HOUR_MS);
  const check = (address: string, kind: EmailKind, now: number) => {
    const wait = kind === 'invite' ? 0 : gap.wait(`${kind}:${address}`, now);
    if (wait > 0) {
      throw tooManyRequests(
        'over_email_send_rate_limit',
        `For security purposes, you can only request this after ${Math.ceil(wait / 1000)} seconds.`,
      );
    }
    if (hourly.wait(address, now) > 0) throw tooManyRequests('over_email_send_rate_limit', 'Email rate limit exceeded');
  };
  const record = (address: string, kind: EmailKind, now: number) => {
    if (kind !== 'invite') gap.record(`${kind}:${address}`, now);
    hourly.record(address, now);
  };
  return {
    /** Throws GoTrue's 429 over_email_send_rate_limit when an e-mail of `kind` to `address` must wait. */
    check: (address: string, kind: EmailKind, now = Date.now()) => check(address, kind, now),
    /** Counts one e-mail of `kind` to `address` (after check(), once the request succeeded). */
    record: (address: string, kind: EmailKind, now = Date.now()) => record(address, kind, now),
    /** check() and record() at once. */
    take(address: string, kind: EmailKind, now = Date.now()): void {
      check(address, kind, now);
      record(address, kind, now);
    },
  };
}
export type EmailLimits = ReturnType<typeof createEmailLimits>;

export type RequestLimit = keyof AuthRateLimits;

/**
 * The client's address for the per-IP limits: the socket's peer. X-Forwarded-For is ignored: the
 * server only listens on loopback with no proxy in front, so every client could write that header
 * and would get a fresh budget with each made-up address.
 */
export function clientIp(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? 'unknown';
}

/**
 * GoTrue's per-IP request limits (`[auth.rate_limit]`, per 5 minutes). Every request counts, whether
 * it succeeds or not, as GoTrue's middleware counts it before the handler runs: the 31st wrong
 * password in 5 minutes gets 429 over_request_rate_limit.
 */
export function createRequestLimits(config: AuthRateLimits) {
  const limiters = Object.fromEntries(
    (Object.keys(config) as RequestLimit[]).map((k) => [k, new RateLimiter(config[k], FIVE_MINUTES_MS)]),
  ) as Record<RequestLimit, RateLimiter>;
  return {
    take(kind: RequestLimit, req: IncomingMessage, now = Date.now()): void {
      takeForIp(limiters[kind], req, now);
    },
  };
}
export type RequestLimits = ReturnType<typeof createRequestLimits>;

/** `[auth.rate_limit] anonymous_users`: anonymous sign-ins per IP, per hour (GoTrue's AnonymousSignIns limiter). */
export function createAnonymousSignInLimit(perHour: number) {
  const limiter = new RateLimiter(perHour, HOUR_MS);
  return { take: (req: IncomingMessage, now = Date.now()) => takeForIp(limiter, req, now) };
}

export type AnonymousSignInLimit = ReturnType<typeof createAnonymousSignInLimit>;

function takeForIp(limiter: RateLimiter, req: IncomingMessage, now: number): void {
  const ip = clientIp(req);
  if (limiter.wait(ip, now) > 0) throw tooManyRequests('over_request_rate_limit', 'Request rate limit reached');
  limiter.record(ip, now);
}
