// pt-BR formatting and Brazilian document masks.

// Built on first use: creating an Intl formatter loads locale data, a cost every page that imports
// this module would otherwise pay while it starts, formatted value or not.
let date: Intl.DateTimeFormat | undefined;

/** 1234567 → "1.234.567". */
const thousands = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, '.');

/**
 * R$ 1.234,56 (the space after R$ is a plain space, not the NBSP Intl emits). Written out rather than
 * through Intl.NumberFormat, whose first use loads the locale's data: a long task on the home's first
 * render on a phone (issue 38). The same text as Intl's pt-BR BRL (format.test compares them): the
 * decimal the number prints as, rounded half away from zero to cents (24.975 → R$ 24,98).
 */
export function formatMoney(value: number | string | null | undefined): string {
  const n = typeof value === 'string' ? Number(value) : (value ?? 0);
  const amount = Number.isFinite(n) ? n : 0;
  const abs = Math.abs(amount);
  const printed = abs >= 1e21 ? BigInt(abs).toString() : abs < 1e-6 ? '0' : String(abs);
  const [whole = '0', fraction = ''] = printed.split('.');
  let cents = BigInt(whole) * 100n + BigInt((fraction + '00').slice(0, 2));
  if ((fraction[2] ?? '0') >= '5') cents += 1n;
  const sign = amount < 0 || Object.is(amount, -0) ? '-' : '';
  return `${sign}R$ ${thousands((cents / 100n).toString())},${(cents % 100n).toString().padStart(2, '0')}`;
}

/** "297,00", "297.00", "1.234,56" or "R$ 19,90" → 297 / 1234.56 / 19.9; NaN when it is not an amount
 * (negative, or more than 2 decimals). The course price, a coupon's value and the order bump's price. */
export function parsePrice(value: string): number {
  const v = value.trim().replace(/^R\$\s*/, '');
  if (v === '') return NaN;
  const normalized = v.includes(',') ? v.replace(/\./g, '').replace(',', '.') : v;
  return /^\d+(\.\d{1,2})?$/.test(normalized) ? Number(normalized) : NaN;
}

/** 297 → "297,00": an amount as the money fields show it (no R$). */
export function moneyInput(value: number | string | null | undefined): string {
  const n = Number(value ?? 0);
  return (Number.isFinite(n) ? n : 0).toFixed(2).replace('.', ',');
}

/** dd/mm/aaaa in Brazil's time zone; '' for missing or invalid dates. */
export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  date ??= new Intl.DateTimeFormat('pt-BR', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'America/Sao_Paulo' });
  return date.format(d);
}

let dateTime: Intl.DateTimeFormat | undefined;

/** dd/mm/aaaa, hh:mm in Brazil's time zone; '' for missing or invalid dates. */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  dateTime ??= new Intl.DateTimeFormat('pt-BR', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'America/Sao_Paulo' });
  return dateTime.format(d);
}

/** Whole minutes from seconds (rounded, never negative): 125 → 2. */
export function minutesFromSeconds(seconds: number | null | undefined): number {
  if (!seconds || seconds < 0 || !Number.isFinite(seconds)) return 0;
  return Math.round(seconds / 60);
}

export function onlyDigits(value: string | null | undefined): string {
  return (value ?? '').replace(/\D/g, '');
}

/** Progressive CPF mask: 000.000.000-00 (extra digits dropped). */
export function maskCpf(value: string): string {
  const d = onlyDigits(value).slice(0, 11);
  if (d.length <= 3) return d;
  if (d.length <= 6) return `${d.slice(0, 3)}.${d.slice(3)}`;
  if (d.length <= 9) return `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6)}`;
  return `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`;
}

/** Progressive phone mask: (00) 0000-0000 for landlines, (00) 00000-0000 for mobiles. A stored
 * number with the country code (55 + 10-11 digits) is shown without it. */
export function maskPhone(value: string): string {
  let d = onlyDigits(value);
  if (d.length >= 12 && d.startsWith('55')) d = d.slice(2);
  d = d.slice(0, 11);
  if (d.length === 0) return '';
  if (d.length <= 2) return `(${d}`;
  if (d.length <= 6) return `(${d.slice(0, 2)}) ${d.slice(2)}`;
  if (d.length <= 10) return `(${d.slice(0, 2)}) ${d.slice(2, 6)}-${d.slice(6)}`;
  return `(${d.slice(0, 2)}) ${d.slice(2, 7)}-${d.slice(7)}`;
}

/** "00000-000" as the CEP is typed. */
export function maskCep(value: string): string {
  const d = onlyDigits(value).slice(0, 8);
  return d.length > 5 ? `${d.slice(0, 5)}-${d.slice(5)}` : d;
}

/** "0000 0000 0000 0000" as the card number is typed (up to 19 digits). */
export function maskCardNumber(value: string): string {
  return onlyDigits(value).slice(0, 19).replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** CPF validity, check digits included (all-equal digits such as 111.111.111-11 are invalid). */
export function isValidCpf(value: string): boolean {
  const d = onlyDigits(value);
  if (d.length !== 11 || /^(\d)\1{10}$/.test(d)) return false;
  const digits = d.split('').map(Number);
  const check = (len: number) => {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += digits[i]! * (len + 1 - i);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  return check(9) === digits[9] && check(10) === digits[10];
}

/** Brazilian phone with area code: 10 digits (landline) or 11 digits starting with 9 after the DDD (mobile). */
export function isValidPhone(value: string): boolean {
  const d = onlyDigits(value);
  if (!/^[1-9]{2}/.test(d)) return false;
  if (d.length === 10) return /^[2-5]$/.test(d.charAt(2));
  if (d.length === 11) return d.charAt(2) === '9';
  return false;
}

/**
 * A wa.me link with a ready message (staff reaching a student or a buyer), or null when the phone cannot
 * be a WhatsApp number. A Brazilian number without the country code (10 or 11 digits, as the profile
 * keeps it) gets 55.
 */
export function whatsappMessageUrl(phone: string | null | undefined, message: string): string | null {
  const digits = onlyDigits(phone);
  const full = digits.length === 10 || digits.length === 11 ? `55${digits}` : digits.startsWith('55') && (digits.length === 12 || digits.length === 13) ? digits : null;
  return full ? `https://wa.me/${full}?text=${encodeURIComponent(message)}` : null;
}

/** WhatsApp link for a number with country code: https://wa.me/5511999999999 */
export function whatsappUrl(number: string): string {
  return `https://wa.me/${onlyDigits(number)}`;
}

/** Initials of a person's name for avatar fallbacks: "Maria da Silva" → "MS". */
export function initials(name: string | null | undefined): string {
  const parts = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return '?';
  const first = parts[0]!.charAt(0);
  const last = parts.length > 1 ? parts[parts.length - 1]!.charAt(0) : '';
  return (first + last).toUpperCase();
}

/** A whole percent in 0-100 for progress indicators (NaN and infinities count as 0). */
export function clampPercent(value: number): number {
  return Math.max(0, Math.min(100, Math.round(Number.isFinite(value) ? value : 0)));
}
