import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Copy, ExternalLink, Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { buttonClasses } from '@/components/ui/button-variants';
import { FormField } from '@/components/ui/form-field';
import { ImageField } from '@/components/ui/image-field';
import { ImagePositionPicker } from '@/components/ui/image-position-picker';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { AdminPage, PageHeader } from '@/components/ui/page-header';
import { useUnsavedChanges } from '@/components/ui/unsaved-changes';
import type { SchoolRow } from '@/platform/session';
import { uploadSchoolImage, useUpdateSchool } from '../api/hooks';
import { whatsappSchema, type WhatsappInput, type WhatsappValues } from '../schemas';
import { copyText } from '@/platform/clipboard';

/** SPEC §8: one title for a failed logo or banner, upload or save. */
const UPLOAD_ERROR = 'Erro ao fazer upload do banner/logo';

function Section({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <section className="grid min-w-0 gap-4 rounded-xl border border-border bg-white p-4 sm:p-6" aria-label={title}>
      <div>
        <h2 className="text-lg font-semibold">{title}</h2>
        {description && <p className="text-sm text-muted-foreground">{description}</p>}
      </div>
      {children}
    </section>
  );
}

export function LoginSettings({ school }: { school: SchoolRow }) {
  const saveLogo = useUpdateSchool(school.id, { success: 'Logo atualizado!', errorTitle: UPLOAD_ERROR });
  const saveBanner = useUpdateSchool(school.id, { success: 'Banner atualizado!', errorTitle: UPLOAD_ERROR });
  const savePosition = useUpdateSchool(school.id, { success: 'Posição atualizada!', errorTitle: 'Erro ao atualizar posição' });
  const saveWhatsapp = useUpdateSchool(school.id, { success: 'WhatsApp atualizado!', errorTitle: 'Erro ao atualizar WhatsApp' });
  const accessUrl = `${window.location.origin}/${school.slug}`;
  // The logo and the banner save as soon as they are chosen; the banner's position and the WhatsApp
  // number wait for their button, and leaving with them unsaved asks first (docs/conventions.md).
  const [position, setPosition] = useState(school.login_banner_position);
  const [savedPosition, setSavedPosition] = useState(school.login_banner_position);
  const upload = (file: File) => uploadSchoolImage(school.id, file);
  const whatsapp = useForm<WhatsappInput, unknown, WhatsappValues>({
    resolver: zodResolver(whatsappSchema),
    defaultValues: { support_whatsapp: school.support_whatsapp ?? '' },
  });
  useUnsavedChanges(whatsapp.formState.isDirty || position !== savedPosition);

  async function copy() {
    await copyText(accessUrl, 'Link copiado!', accessUrl);
  }

  return (
    <AdminPage className="max-w-4xl">
      <PageHeader title="Tela de Login" description="O que os alunos veem ao entrar na sua escola" />
      <Section title="URL de acesso" description="Envie este link aos seus alunos.">
        <div className="grid gap-2">
          <Label htmlFor="access-url">URL de acesso</Label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Input id="access-url" value={accessUrl} readOnly onFocus={(e) => e.currentTarget.select()} />
            <div className="flex gap-2">
              <Button type="button" variant="outline" onClick={() => void copy()}>
                <Copy aria-hidden="true" /> Copiar
              </Button>
              <a href={accessUrl} target="_blank" rel="noreferrer" className={buttonClasses({ variant: 'outline' })}>
                <ExternalLink aria-hidden="true" /> Abrir
              </a>
            </div>
          </div>
        </div>
      </Section>
      <ImageField
        label="Logo"
        hint="JPG, PNG ou WEBP até 5MB. Fundo transparente (PNG) fica melhor."
        aspect="3 / 1"
        value={school.logo_url}
        onChange={(url) => saveLogo.mutate({ logo_url: url })}
        upload={upload}
        uploadErrorTitle={UPLOAD_ERROR}
      />
      <ImageField
        label="Banner de login"
        hint="JPG, PNG ou WEBP até 5MB. Recomendado 1920x1080."
        aspect="16 / 9"
        value={school.login_banner_url}
        onChange={(url) => saveBanner.mutate({ login_banner_url: url })}
        upload={upload}
        uploadErrorTitle={UPLOAD_ERROR}
      />
      {school.login_banner_url && (
        <Section title="Posição do banner de login" description="Escolha o ponto da imagem que deve ficar sempre visível.">
          <ImagePositionPicker src={school.login_banner_url} value={position} onChange={setPosition} aspect="3 / 4" label="Posição do banner de login" />
          <div className="flex justify-end">
            <Button
              type="button"
              disabled={savePosition.isPending || position === savedPosition}
              onClick={() => savePosition.mutate({ login_banner_position: position }, { onSuccess: (saved) => setSavedPosition(saved.login_banner_position) })}
            >
              Salvar posição
            </Button>
          </div>
        </Section>
      )}
      <Section title="WhatsApp de suporte" description="Um botão flutuante na tela de login leva o aluno a este número. Deixe vazio para não mostrar.">
        <form
          noValidate
          aria-label="WhatsApp de suporte"
          className="grid gap-4 sm:grid-cols-[1fr_auto] sm:items-start"
          onSubmit={whatsapp.handleSubmit((v) =>
            saveWhatsapp.mutate(
              { support_whatsapp: v.support_whatsapp || null },
              { onSuccess: (saved) => whatsapp.reset({ support_whatsapp: saved.support_whatsapp ?? '' }) },
            ),
          )}
        >
          <FormField label="WhatsApp" hint="Só números, com código do país e DDD: 5511999999999" error={whatsapp.formState.errors.support_whatsapp?.message}>
            <Input type="tel" inputMode="numeric" placeholder="5511999999999" {...whatsapp.register('support_whatsapp')} />
          </FormField>
          <Button type="submit" className="sm:mt-6" disabled={saveWhatsapp.isPending}>
            {saveWhatsapp.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
            Salvar WhatsApp
          </Button>
        </form>
      </Section>
    </AdminPage>
  );
}
