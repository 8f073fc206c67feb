// The Clientes screen (SPEC §2, super admin): the school administrators page by page (?pagina=2), new
// schools and new clients, reset password and the active switch (the account operations of src/concepts/accounts.ts).
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Building2, ExternalLink, KeyRound, Loader2, Plus, UserPlus } from 'lucide-react';
import { Avatar } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { buttonClasses } from '@/components/ui/button-variants';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { AdminPage, PageHeader } from '@/components/ui/page-header';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { TemporaryPasswordDialog } from '@/components/ui/temporary-password-dialog';
import { LoadError } from '@/components/ui/load-error';
import { Pagination } from '@/components/ui/pagination';
import { useListParams } from '@/utils/list-params';
import { CLIENTS_PAGE_SIZE } from '../api/queries';
import { firstAccessText, useResetAccountPassword } from '@/concepts/accounts';
import { useClients, useCreateClient, useCreateSchool, useSchoolOptions, useToggleClientActive } from '../api/hooks';
import { clientSchema, schoolSchema, type ClientValues, type SchoolValues } from '../schemas';
import type { ClientRow } from '../api/queries';


export function ClientsPage() {
  const { page, setPage } = useListParams();
  const clients = useClients(page);
  const reset = useResetAccountPassword();
  const [addingClient, setAddingClient] = useState(false);
  const [addingSchool, setAddingSchool] = useState(false);
  const [resetting, setResetting] = useState<ClientRow | null>(null);
  const [password, setPassword] = useState<{ who: string; title: string; value: string; created?: boolean } | null>(null);
  const rows = clients.data?.rows ?? [];
  return (
    <AdminPage>
      <PageHeader
        title="Clientes"
        description="Os administradores das escolas da plataforma"
        actions={
          <>
            <Button variant="outline" onClick={() => setAddingSchool(true)}>
              <Building2 aria-hidden="true" /> Nova Escola
            </Button>
            <Button onClick={() => setAddingClient(true)}>
              <UserPlus aria-hidden="true" /> Novo Cliente
            </Button>
          </>
        }
      />
      {clients.isPending ? (
        <Skeleton className="h-40 rounded-xl" />
      ) : clients.isError ? (
        <LoadError title="Não foi possível carregar os clientes" onRetry={clients.refetch} />
      ) : rows.length === 0 ? (
        <EmptyState icon={Building2} title="Nenhum cliente cadastrado ainda" />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Clientes">
          {rows.map((c) => (
            <ClientCard key={`${c.user_id}-${c.school?.id}`} client={c} onReset={() => setResetting(c)} />
          ))}
        </ul>
      )}
      {clients.data && <Pagination page={page} pageSize={CLIENTS_PAGE_SIZE} total={clients.data.total} onPageChange={setPage} label="Páginas de clientes" noun={['cliente', 'clientes']} />}
      {addingClient && <ClientDialog onClose={() => setAddingClient(false)} onCreated={(who, pwd) => setPassword({ who, title: 'Cliente cadastrado', value: pwd, created: true })} />}
      {addingSchool && <SchoolDialog onClose={() => setAddingSchool(false)} />}
      <ConfirmDialog
        open={!!resetting}
        onOpenChange={(o) => !o && setResetting(null)}
        title="Redefinir senha?"
        description={`${resetting?.profile?.name ?? ''} receberá uma senha temporária e precisará criar uma nova no próximo acesso.`}
        confirmLabel="Redefinir senha"
        destructive={false}
        pending={reset.isPending}
        onConfirm={() =>
          resetting &&
          reset.mutate(resetting.user_id, {
            onSuccess: (r) => setPassword({ who: resetting.profile?.name ?? 'o cliente', title: 'Senha redefinida', value: r.temporary_password }),
            onSettled: () => setResetting(null),
          })
        }
      />
      <TemporaryPasswordDialog
        title={password?.title ?? ''}
        who={password?.who ?? ''}
        password={password?.value ?? null}
        // A new client gets the access e-mail too: its link first, this password as the fallback.
        {...(password?.created && { passwordLabel: 'Senha inicial', description: firstAccessText(password.who, 'a senha padrão de administradores') })}
        onClose={() => setPassword(null)}
      />
    </AdminPage>
  );
}

function ClientCard({ client: c, onReset }: { client: ClientRow; onReset: () => void }) {
  const toggle = useToggleClientActive();
  const name = c.profile?.name ?? 'Administrador';
  const active = c.profile?.is_active ?? false;
  return (
    <li className="grid min-w-0 grid-cols-1 content-start gap-3 rounded-xl border border-border bg-white p-4 shadow-xs">
      <div className="flex items-start gap-3">
        <Avatar name={name} className="size-11" />
        <div className="min-w-0 flex-1">
          <h2 className="truncate font-semibold">{name}</h2>
          <p className="truncate text-xs text-muted-foreground">{c.profile?.email}</p>
        </div>
        <Badge variant={active ? 'success' : 'secondary'}>{active ? 'Ativo' : 'Inativo'}</Badge>
      </div>
      <dl className="grid grid-cols-1 gap-1 text-sm">
        <div className="flex gap-2">
          <dt className="shrink-0 text-muted-foreground">Escola:</dt>
          <dd className="min-w-0 truncate">{c.school?.name}</dd>
        </div>
        <div className="flex gap-2">
          <dt className="shrink-0 text-muted-foreground">Endereço:</dt>
          <dd className="min-w-0 truncate">/{c.school?.slug}</dd>
        </div>
        <div className="flex gap-2">
          <dt className="shrink-0 text-muted-foreground">Área de membros:</dt>
          <dd className="min-w-0 truncate">{c.school?.member_area_name ?? '—'}</dd>
        </div>
      </dl>
      <div className="flex flex-wrap items-center gap-2">
        <Button variant="outline" size="sm" onClick={onReset} aria-label={`Redefinir senha de ${name}`}>
          <KeyRound aria-hidden="true" /> Redefinir senha
        </Button>
        {c.school && (
          <a href={`/${c.school.slug}`} target="_blank" rel="noreferrer" className={buttonClasses({ variant: 'ghost', size: 'sm' })} aria-label={`Abrir a página de login de ${c.school.name}`}>
            <ExternalLink aria-hidden="true" /> Login
          </a>
        )}
        <div className="ml-auto flex items-center gap-2">
          <Switch id={`client-${c.user_id}`} checked={active} disabled={toggle.isPending} onCheckedChange={(on) => toggle.mutate({ id: c.user_id, active: on })} />
          <label htmlFor={`client-${c.user_id}`} className="text-sm">
            <span className="sr-only">{name}: </span>Ativo
          </label>
        </div>
      </div>
    </li>
  );
}

function ClientDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (who: string, password: string) => void }) {
  const schools = useSchoolOptions();
  const create = useCreateClient();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ClientValues>({ resolver: zodResolver(clientSchema), defaultValues: { name: '', email: '', school_id: '' } });
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Novo Cliente</DialogTitle>
          <DialogDescription>
            O acesso é pelo e-mail informado: enviamos a ele um link para criar a senha e, se o e-mail não chegar, a senha inicial é a senha padrão de administradores, trocada no primeiro acesso.
          </DialogDescription>
        </DialogHeader>
        <form
          noValidate
          aria-label="Novo Cliente"
          className="grid gap-4"
          onSubmit={handleSubmit((v) =>
            create.mutate(v, {
              onSuccess: (r) => {
                onClose();
                onCreated(v.name, r.temporary_password);
              },
            }),
          )}
        >
          <FormField label="Nome" error={errors.name?.message} required>
            <Input {...register('name')} />
          </FormField>
          <FormField label="Email" error={errors.email?.message} required>
            <Input type="email" {...register('email')} />
          </FormField>
          <FormField label="Escola" error={errors.school_id?.message} required>
            <Select {...register('school_id')}>
              <option value="">Selecione a escola</option>
              {(schools.data ?? []).map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name} (/{s.slug})
                </option>
              ))}
            </Select>
          </FormField>
          <FormDialogFooter onCancel={onClose} pending={create.isPending} submitLabel="Cadastrar" />
        </form>
      </DialogContent>
    </Dialog>
  );
}

function SchoolDialog({ onClose }: { onClose: () => void }) {
  const create = useCreateSchool();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<SchoolValues>({ resolver: zodResolver(schoolSchema), defaultValues: { name: '', slug: '', member_area_name: '' } });
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Nova Escola</DialogTitle>
          <DialogDescription>A página de login da escola fica no seu endereço na web (/endereço) assim que ela é criada.</DialogDescription>
        </DialogHeader>
        <form noValidate aria-label="Nova Escola" className="grid gap-4" onSubmit={handleSubmit((v) => create.mutate(v, { onSuccess: onClose }))}>
          <FormField label="Nome da escola" error={errors.name?.message} required>
            <Input {...register('name')} />
          </FormField>
          <FormField label="Endereço na web" hint="Letras minúsculas, números e hífens: a página de login fica em /endereço" error={errors.slug?.message} required>
            <Input autoCapitalize="none" spellCheck={false} {...register('slug')} />
          </FormField>
          <FormField label="Nome da área de membros" error={errors.member_area_name?.message} required>
            <Input {...register('member_area_name')} />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancelar
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
              <Plus aria-hidden="true" /> Criar escola
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
