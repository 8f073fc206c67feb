// Own profile: form save and avatar upload (bucket avatars, {userId}/avatar.{ext}), and the student's
// subscriptions ("Minha assinatura", issue 24; cancelling is src/concepts/subscriptions.ts').
import type { DbClient } from '@/platform/db';
import { isRunning, type BillingType, type PlanCycle, type SubscriptionStatus } from '@/concepts/subscriptions';
import type { ProfileRow } from '@/platform/session';
import { avatarPath } from '@/platform/upload';
import type { ProfileValues } from '../schemas';

export async function updateProfile(client: DbClient, userId: string, values: ProfileValues): Promise<ProfileRow> {
  const { data, error } = await client
    .from('profiles')
    .update({ name: values.name, phone: values.phone || null, cpf: values.cpf || null, address: values.address || null })
    .eq('id', userId)
    .select('*')
    .single();
  if (error) throw error;
  return data;
}

/** The object path inside bucket `avatars` of a public avatar URL, when it is one of the user's files. */
export function avatarObjectPath(url: string | null | undefined, userId: string): string | null {
  if (!url) return null;
  const match = /\/storage\/v1\/object\/public\/avatars\/([^?#]+)/.exec(url);
  if (!match) return null;
  const path = decodeURIComponent(match[1]!);
  return path.startsWith(`${userId}/`) ? path : null;
}

/** Uploads the photo, drops the previous file if it had another name, and saves the new URL on the profile. */
export async function uploadAvatar(client: DbClient, userId: string, file: File, previousUrl: string | null): Promise<string> {
  const path = avatarPath(userId, file);
  const bucket = client.storage.from('avatars');
  const { error } = await bucket.upload(path, file, { upsert: true, contentType: file.type, cacheControl: '3600' });
  if (error) throw error;
  const oldPath = avatarObjectPath(previousUrl, userId);
  if (oldPath && oldPath !== path) await bucket.remove([oldPath]); // a failed cleanup is not the user's problem
  // The path is stable, so a version parameter makes browsers fetch the new photo.
  const url = `${bucket.getPublicUrl(path).data.publicUrl}?v=${Date.now()}`;
  const { error: updateError } = await client.from('profiles').update({ avatar_url: url }).eq('id', userId);
  if (updateError) throw updateError;
  return url;
}

/** One of the student's subscriptions (issue 24, "Minha assinatura") with its latest invoice. */
export interface MySubscription {
  id: string;
  plan_name: string;
  status: SubscriptionStatus;
  billing_type: BillingType;
  cycle: PlanCycle;
  value: number;
  /** The end of the period the last paid invoice covers (the next charge while it runs). */
  paid_until: string | null;
  created_at: string;
  /** The newest invoice Asaas sent for it, or null before the first arrives. */
  invoice: { status: string; invoice_url: string | null; due_date: string | null } | null;
}

/**
 * The student's own subscriptions, the ones Asaas may still charge first, then the newest. One Asaas
 * refused (FAILED) never existed for the student and is left out; a student has a few, not hundreds.
 */
export async function fetchMySubscriptions(client: DbClient, userId: string): Promise<MySubscription[]> {
  const { data, error } = await client
    .from('subscriptions')
    .select('id, plan_name, status, billing_type, cycle, value, paid_until, created_at, payments(status, invoice_url, due_date, created_at)')
    .eq('user_id', userId)
    .neq('status', 'FAILED')
    .order('created_at', { ascending: false })
    .order('due_date', { referencedTable: 'payments', ascending: false, nullsFirst: false })
    .order('created_at', { referencedTable: 'payments', ascending: false });
  if (error) throw error;
  const rows = (data ?? []).map(({ payments, ...s }) => ({
    ...s,
    status: s.status as SubscriptionStatus,
    billing_type: s.billing_type as BillingType,
    cycle: s.cycle as PlanCycle,
    value: Number(s.value),
    invoice: payments[0] ? { status: payments[0].status, invoice_url: payments[0].invoice_url, due_date: payments[0].due_date } : null,
  }));
  return [...rows.filter((s) => isRunning(s.status)), ...rows.filter((s) => !isRunning(s.status))];
}
