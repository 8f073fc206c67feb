import { z } from '@/platform/zod';
import { personFields } from '@/concepts/person-schema';

export const profileSchema = z.object(personFields);
export type ProfileValues = z.infer<typeof profileSchema>;
