// Copy buttons (passwords, secrets, links, code samples): one way to copy and say so.
import { toast } from './toast';

/** Copies `text` (or what `text` resolves to), then toasts `copied`; a refusal says to copy by hand. */
export async function copyText(text: string | Promise<string>, copied: string, failureHint?: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(await text);
    toast.success(copied, { duration: 2000 });
  } catch {
    // The browser refused (no permission, not a secure context): no request failed, so not the mutation error path.
    toast.error('Não foi possível copiar', { description: failureHint ?? 'Selecione o texto e copie manualmente.' });
  }
}
