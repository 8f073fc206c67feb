import { z } from '@/lib/zod';
import { personFields } from '@/lib/person-schema';

export const profileSchema = z.object(personFields);
export type ProfileValues = z.infer<typeof profileSchema>;
