import { z } from '@/platform/zod';
import { emailField, personFields } from '@/concepts/person-schema';

export const studentSchema = z.object({ ...personFields, email: emailField });
export type StudentValues = z.infer<typeof studentSchema>;

export const editStudentSchema = z.object(personFields);
export type EditStudentValues = z.infer<typeof editStudentSchema>;
