import { z } from '@/lib/zod';
import { emailField, personFields } from '@/lib/person-schema';

export const studentSchema = z.object({ ...personFields, email: emailField });
export type StudentValues = z.infer<typeof studentSchema>;

export const editStudentSchema = z.object(personFields);
export type EditStudentValues = z.infer<typeof editStudentSchema>;
