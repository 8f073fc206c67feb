// The limiter's windows with an explicit clock (an hour cannot pass in a test), and config.toml's values.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAuthEmailConfig } from '../config.ts';
import { AuthError } from './errors.ts';
import { createEmailLimits, RateLimiter } from './rate-limit.ts';

const MINUTE = 60_000;

function refusal(fn: () => void): AuthError | null {
  try {
    fn();
    return null;
  } catch (e) {
    if (e instanceof AuthError) return e;
    throw e;
  }
}

describe('RateLimiter', () => {
  it('allows `limit` events per window and says how long to wait', () => {
    const limiter = new RateLimiter(2, 10 * MINUTE);
    limiter.record('a', 0);
    expect(limiter.wait('a', 1)).toBe(0);
    limiter.record('a', MINUTE);
    expect(limiter.wait('a', 2 * MINUTE)).toBe(8 * MINUTE);
    expect(limiter.wait('b', 2 * MINUTE)).toBe(0);
    expect(limiter.wait('a', 10 * MINUTE)).toBe(0);
  });

  it('has no limit when the limit or the window is 0', () => {
    for (const limiter of [new RateLimiter(0, MINUTE), new RateLimiter(1, 0)]) {
      limiter.record('a', 0);
      limiter.record('a', 0);
      expect(limiter.wait('a', 0)).toBe(0);
    }
  });
});

describe('e-mail limits', () => {
  const limits = () => createEmailLimits({ sentPerHour: 2, maxFrequencyMs: MINUTE });

  it('refuses a second e-mail inside max_frequency, then the third inside the hour', () => {
    const l = limits();
    expect(refusal(() => l.take('a@x.com', 'recovery', 0))).toBeNull();
    const tooSoon = refusal(() => l.take('a@x.com', 'recovery', 15_000));
    expect(tooSoon).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    expect(tooSoon!.message).toBe('For security purposes, you can only request this after 45 seconds.');
    expect(refusal(() => l.take('a@x.com', 'recovery', MINUTE))).toBeNull();
    const hourly = refusal(() => l.take('a@x.com', 'recovery', 5 * MINUTE));
    expect(hourly).toMatchObject({
      status: 429,
      code: 'over_email_send_rate_limit',
      message: 'Email rate limit exceeded',
    });
    // Refused requests are not counted: the hour runs from the first e-mail.
    expect(refusal(() => l.take('a@x.com', 'recovery', 60 * MINUTE))).toBeNull();
    expect(refusal(() => l.take('b@x.com', 'recovery', 60 * MINUTE))).toBeNull();
  });

  it('keeps the max_frequency gap per kind of e-mail (GoTrue keeps one *_sent_at per kind), the hourly count per address', () => {
    const l = limits();
    expect(refusal(() => l.take('c@x.com', 'confirmation', 0))).toBeNull();
    expect(refusal(() => l.take('c@x.com', 'recovery', 1_000))).toBeNull();
    expect(refusal(() => l.take('c@x.com', 'confirmation', 2_000))?.message).toMatch(/after 58 seconds/);
    expect(refusal(() => l.take('c@x.com', 'email_change', 3_000))?.message).toBe('Email rate limit exceeded');
  });

  it('reads the limits of supabase/config.toml', () => {
    const toml = readFileSync(path.resolve(import.meta.dirname, '../../supabase/config.toml'), 'utf8');
    expect(readAuthEmailConfig(toml)).toEqual({
      enableConfirmations: true,
      doubleConfirmChanges: true,
      securePasswordChange: false,
      otpExpirySeconds: 3600,
      sentPerHour: 2,
      maxFrequencyMs: MINUTE,
      templates: {
        confirmation: { subject: 'Confirme seu cadastro', contentPath: './supabase/templates/confirmation.html' },
        recovery: { subject: 'Redefinir senha', contentPath: './supabase/templates/recovery.html' },
        email_change: { subject: 'Confirme a alteração de e-mail', contentPath: './supabase/templates/email_change.html' },
      },
    });
    expect(
      readAuthEmailConfig('[auth.email]\nmax_frequency = "1m30s" # comment\n[auth.rate_limit]\nemail_sent = 30\n'),
    ).toMatchObject({
      sentPerHour: 30,
      maxFrequencyMs: 90_000,
      enableConfirmations: false,
      templates: {},
    });
    expect(() => readAuthEmailConfig('[auth.email]\nmax_frequency = "soon"\n')).toThrow(/max_frequency/);
  });
});
