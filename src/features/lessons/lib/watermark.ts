// What the lesson video's watermark says and where it goes (issue 39; drawn by
// components/video-watermark.tsx).

/** `***.456.789-**`: the CPF's middle six digits, the rest hidden; null when it is not 11 digits. */
export function maskCpf(cpf: string | null | undefined): string | null {
  const digits = (cpf ?? '').replace(/\D/g, '');
  if (digits.length !== 11) return null;
  return `***.${digits.slice(3, 6)}.${digits.slice(6, 9)}-**`;
}

/** "Nome · ***.456.789-**", or "Nome · e-mail" without a CPF. */
export function watermarkText({ name, cpf, email }: { name: string | null | undefined; cpf: string | null | undefined; email: string | null | undefined }): string {
  const parts = [name?.trim() || email || '', maskCpf(cpf) ?? email ?? ''];
  return parts.filter((part, i) => part && parts.indexOf(part) === i).join(' · ');
}

/** How long the watermark stays in one place: 15 to 30 seconds. */
export const nextMoveDelay = (): number => 15_000 + Math.random() * 15_000;

/**
 * A place in percent of the frame, 3 to 97 on each axis. The label is also shifted back by the same
 * percent of its own size, so it never leaves the frame whatever its length.
 */
export const randomSpot = (): { x: number; y: number } => ({ x: 3 + Math.random() * 94, y: 3 + Math.random() * 94 });
