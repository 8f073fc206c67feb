// How staff reach a student of a turma from "Alunos em risco": a wa.me link with a ready pt-BR message
// naming the course and the turma (whatsappMessageUrl), or an e-mail (mailto:).
import { whatsappMessageUrl } from '@/utils/format';

export interface ContactContext {
  studentName: string;
  courseTitle: string;
  turmaName: string;
}

export function contactMessage({ studentName, courseTitle, turmaName }: ContactContext): string {
  const first = studentName.trim().split(/\s+/)[0] || studentName;
  return `Olá, ${first}! Tudo bem? Aqui é da equipe do curso ${courseTitle} (${turmaName}). Sentimos sua falta nas aulas: posso ajudar em algo para você continuar acompanhando a turma?`;
}

/** The wa.me link, or null when the phone cannot be a WhatsApp number. */
export function whatsappLink(phone: string | null, context: ContactContext): string | null {
  return whatsappMessageUrl(phone, contactMessage(context));
}

export function mailtoLink(email: string, context: ContactContext): string {
  const subject = `${context.courseTitle}: sentimos sua falta na ${context.turmaName}`;
  return `mailto:${email}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(contactMessage(context))}`;
}

/** "Em dia" or "Atrasado 2 aulas". */
export function paceLabel(behind: number): string {
  if (behind <= 0) return 'Em dia';
  return `Atrasado ${behind} ${behind === 1 ? 'aula' : 'aulas'}`;
}
