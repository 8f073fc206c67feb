import { z } from '@/platform/zod';
import { onlyDigits } from '@/utils/format';
import { finalSlug } from '@/utils/slug';

const HEX6 = /^#[0-9a-fA-F]{6}$/;

export const memberAreaSchema = z.object({
  name: z.string().trim().min(1, 'Nome é obrigatório').max(200, 'Máximo de 200 caracteres'),
  description: z.string().max(5000, 'Máximo de 5.000 caracteres'),
  slug: z
    .string()
    .transform(finalSlug)
    .pipe(z.string().min(1, 'Informe o endereço na web').max(100, 'Máximo de 100 caracteres')),
  primary_color: z.string().regex(HEX6, 'Use uma cor no formato #RRGGBB'),
  secondary_color: z.string().regex(HEX6, 'Use uma cor no formato #RRGGBB'),
  banner_url: z.string().nullable(),
  banner_position: z.string(),
});
export type MemberAreaInput = z.input<typeof memberAreaSchema>;
export type MemberAreaValues = z.output<typeof memberAreaSchema>;

/** Settings: the name in the header, the login page and the sidebar (SPEC §5). */
export const memberAreaNameSchema = z.object({ member_area_name: z.string().trim().min(1, 'Nome não pode estar vazio').max(200, 'Nome muito longo') });
export type MemberAreaNameValues = z.infer<typeof memberAreaNameSchema>;

/** SPEC §5: country code + area code + number, 12 or 13 digits; empty removes the button. */
export const whatsappSchema = z.object({
  support_whatsapp: z
    .string()
    .transform(onlyDigits)
    .refine((d) => d === '' || /^\d{12,13}$/.test(d), 'O WhatsApp deve ter 12 ou 13 dígitos (código do país, DDD e número), ex.: 5511999999999'),
});
export type WhatsappInput = z.input<typeof whatsappSchema>;
export type WhatsappValues = z.output<typeof whatsappSchema>;

/** Settings (issue 24): days an unpaid subscription invoice waits before the plan's access pauses (schools_subscription_grace_days_check). */
export const subscriptionGraceSchema = z.object({
  subscription_grace_days: z
    .string()
    .trim()
    .min(1, 'Informe o número de dias')
    .refine((v) => /^\d+$/.test(v) && Number(v) <= 60, 'Use um número inteiro de 0 a 60')
    .transform(Number),
});
export type SubscriptionGraceInput = z.input<typeof subscriptionGraceSchema>;
export type SubscriptionGraceValues = z.output<typeof subscriptionGraceSchema>;

/** A whole number typed in a field, from `min` to `max` (the database's check constraint says the same). */
const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .trim()
    .min(1, 'Informe um número')
    .refine((v) => /^\d+$/.test(v) && Number(v) >= min && Number(v) <= max, `Use um número inteiro de ${min} a ${max}`)
    .transform(Number);

/** Settings → Vídeos das aulas (issue 39): school_video_settings' bounds (its *_range checks). */
export const videoSettingsSchema = z.object({
  max_screens: wholeNumber(1, 10),
  sharing_max_devices: wholeNumber(2, 50),
  sharing_max_networks: wholeNumber(2, 50),
});
export type VideoSettingsInput = z.input<typeof videoSettingsSchema>;
export type VideoSettingsValues = z.output<typeof videoSettingsSchema>;
