// "Compartilhamento suspeito" (issue 39, docs/video.md): the school's accounts seen on more devices or
// networks in 7 days than its limits (Configurações → Vídeos das aulas), page by page (?pagina=2), each a
// card that opens to its sessions, with "Encerrar sessões" and "Desativar conta", each confirmed first.
// Cards at every width, as the other admin lists; a session's fields wrap into columns as room allows.
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ChevronDown, LogOut, ShieldCheck, UserCheck, UserX } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '@/components/ui/collapsible';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { AdminPage, PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { Skeleton } from '@/components/ui/skeleton';
import { useVideoSettings, VIDEO_SETTINGS_DEFAULTS, type VideoSettings } from '@/concepts/video-settings';
import { formatDateTime } from '@/utils/format';
import { useListParams } from '@/utils/list-params';
import { useEndAccountSessions, useSetSharingAccountActive, useSuspiciousSharing } from '../api/hooks';
import { SHARING_PAGE_SIZE, type SessionEndReason, type SharingAccount, type SharingSession } from '../api/queries';

const END_REASON: Record<SessionEndReason, string> = {
  ended: 'o vídeo foi fechado',
  taken_over: 'outro dispositivo usou "Assistir aqui"',
  replaced: 'reaberto no mesmo dispositivo',
  timed_out: 'sem sinal por 90 segundos',
  access_lost: 'o acesso à aula terminou',
  signed_out: 'encerrada pela equipe',
  moved: 'continuada de outro dispositivo ou rede',
};

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('pt-BR')} ${n === 1 ? one : many}`;

type Confirming = { action: 'end' | 'deactivate'; account: SharingAccount } | null;

export function SharedLoginsPage({ schoolId }: { schoolId: string }) {
  const { page, setPage } = useListParams();
  const report = useSuspiciousSharing(schoolId, page);
  // The limits the report applies, for the words around it; until they load, the defaults' words wait.
  const limits = useVideoSettings(schoolId).data;
  const [confirming, setConfirming] = useState<Confirming>(null);
  const end = useEndAccountSessions();
  const setActive = useSetSharingAccountActive();
  const rows = report.data?.rows ?? [];

  return (
    <AdminPage>
      <PageHeader title="Compartilhamento suspeito" description="Contas que assistiram às aulas em dispositivos ou redes demais nos últimos 7 dias" />
      {limits && <RuleNote limits={limits} />}
      {report.isPending ? (
        <div className="grid gap-4">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-40 rounded-xl" />
          ))}
        </div>
      ) : report.isError ? (
        <LoadError title="Não foi possível carregar o relatório" onRetry={report.refetch} />
      ) : rows.length === 0 ? (
        <EmptyState
          icon={ShieldCheck}
          title={page > 0 ? 'Nenhuma conta nesta página' : 'Nenhuma conta com sinais de compartilhamento'}
          description={<EmptyDescription limits={limits ?? VIDEO_SETTINGS_DEFAULTS} />}
          action={
            page > 0 ? (
              <Button variant="outline" onClick={() => setPage(0)}>
                Ir para a primeira página
              </Button>
            ) : undefined
          }
        />
      ) : (
        <ul className="grid grid-cols-1 gap-4" aria-label="Contas com sinais de compartilhamento" aria-busy={report.isFetching}>
          {rows.map((account) => (
            <AccountCard
              key={account.user_id}
              account={account}
              onEnd={() => setConfirming({ action: 'end', account })}
              onDeactivate={() => setConfirming({ action: 'deactivate', account })}
              onReactivate={() => setActive.mutate({ id: account.user_id, active: true })}
              busy={setActive.isPending}
            />
          ))}
        </ul>
      )}
      {rows.length > 0 && report.data && (
        <Pagination page={page} pageSize={SHARING_PAGE_SIZE} total={report.data.total} onPageChange={setPage} label="Páginas do relatório" noun={['conta', 'contas']} />
      )}
      <ConfirmDialog
        open={confirming?.action === 'end'}
        onOpenChange={(open) => !open && setConfirming(null)}
        title="Encerrar sessões?"
        description={`Os vídeos que ${confirming?.account.name ?? ''} estiver assistindo param agora, e a conta sai de todos os dispositivos (em até 1 hora). Para continuar, será preciso entrar de novo com a senha.`}
        confirmLabel="Encerrar sessões"
        pending={end.isPending}
        onConfirm={() => confirming && end.mutate(confirming.account.user_id, { onSettled: () => setConfirming(null) })}
      />
      <ConfirmDialog
        open={confirming?.action === 'deactivate'}
        onOpenChange={(open) => !open && setConfirming(null)}
        title="Desativar conta?"
        description={`${confirming?.account.name ?? ''} perde o acesso aos cursos e aos vídeos até a conta ser reativada (aqui ou em Alunos).`}
        confirmLabel="Desativar conta"
        pending={setActive.isPending}
        onConfirm={() => confirming && setActive.mutate({ id: confirming.account.user_id, active: false }, { onSettled: () => setConfirming(null) })}
      />
    </AdminPage>
  );
}

function RuleNote({ limits }: { limits: VideoSettings }) {
  return (
    <p className="text-sm text-muted-foreground">
      Aparecem aqui as contas vistas em mais de {plural(limits.sharing_max_devices, 'dispositivo', 'dispositivos')} ou em mais de{' '}
      {plural(limits.sharing_max_networks, 'rede', 'redes')} nos últimos 7 dias. Os limites ficam em{' '}
      <Link to="/admin/settings" className="font-medium text-primary underline-offset-4 hover:underline">
        Configurações → Vídeos das aulas
      </Link>
      .
    </p>
  );
}

function EmptyDescription({ limits }: { limits: VideoSettings }) {
  return (
    <>
      O relatório procura contas usadas por várias pessoas: nos últimos 7 dias, nenhuma conta assistiu aos vídeos protegidos das aulas em mais de{' '}
      {plural(limits.sharing_max_devices, 'dispositivo', 'dispositivos')} (computadores, celulares, tablets) ou em mais de{' '}
      {plural(limits.sharing_max_networks, 'rede', 'redes')} de internet diferentes.
    </>
  );
}

function AccountCard({
  account: a,
  onEnd,
  onDeactivate,
  onReactivate,
  busy,
}: {
  account: SharingAccount;
  onEnd: () => void;
  onDeactivate: () => void;
  onReactivate: () => void;
  busy: boolean;
}) {
  const [open, setOpen] = useState(false);
  const watching = a.sessions.filter((s) => !s.ended_at).length;
  return (
    <li className="grid min-w-0 grid-cols-1 gap-3 rounded-xl border border-border bg-white p-4 shadow-xs">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 className="truncate font-semibold">{a.name}</h2>
          <p className="truncate text-xs text-muted-foreground">{a.email}</p>
        </div>
        <div className="flex flex-wrap gap-1.5">
          {watching > 0 && <Badge variant="warning">{plural(watching, 'vídeo aberto agora', 'vídeos abertos agora')}</Badge>}
          <Badge variant={a.is_active ? 'success' : 'secondary'}>{a.is_active ? 'Conta ativa' : 'Conta desativada'}</Badge>
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-4">
        <Fact term="Dispositivos" value={a.devices.toLocaleString('pt-BR')} />
        <Fact term="Redes" value={a.networks.toLocaleString('pt-BR')} />
        <Fact term="Sessões em 7 dias" value={a.session_count.toLocaleString('pt-BR')} />
        <Fact term="Visto por último" value={formatDateTime(a.last_seen_at)} />
      </dl>
      <Collapsible open={open} onOpenChange={setOpen} className="grid grid-cols-1 gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <CollapsibleTrigger asChild>
            <Button variant="outline" size="sm" aria-label={`${open ? 'Ocultar' : 'Ver'} sessões de ${a.name}`}>
              <ChevronDown aria-hidden="true" className={open ? 'rotate-180' : undefined} /> {open ? 'Ocultar sessões' : 'Ver sessões'}
            </Button>
          </CollapsibleTrigger>
          <Button variant="outline" size="sm" onClick={onEnd} aria-label={`Encerrar sessões de ${a.name}`}>
            <LogOut aria-hidden="true" /> Encerrar sessões
          </Button>
          {a.is_active ? (
            <Button variant="outline" size="sm" onClick={onDeactivate} aria-label={`Desativar conta de ${a.name}`} className="text-destructive">
              <UserX aria-hidden="true" /> Desativar conta
            </Button>
          ) : (
            <Button variant="outline" size="sm" onClick={onReactivate} disabled={busy} aria-label={`Reativar conta de ${a.name}`}>
              <UserCheck aria-hidden="true" /> Reativar conta
            </Button>
          )}
        </div>
        <CollapsibleContent>
          <SessionList account={a} />
        </CollapsibleContent>
      </Collapsible>
    </li>
  );
}

function Fact({ term, value }: { term: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{term}</dt>
      <dd className="font-medium tabular-nums">{value}</dd>
    </div>
  );
}

/** The account's sessions of the 7 days, newest first; its devices numbered in the order they show up. */
function SessionList({ account: a }: { account: SharingAccount }) {
  const deviceNumber = new Map<string, number>();
  for (const s of a.sessions) if (!deviceNumber.has(s.device)) deviceNumber.set(s.device, deviceNumber.size + 1);
  return (
    <div className="grid grid-cols-1 gap-2">
      <ul className="grid grid-cols-1 gap-2" aria-label={`Sessões de ${a.name}`}>
        {a.sessions.map((s) => (
          <SessionItem key={s.id} session={s} device={deviceNumber.get(s.device)!} />
        ))}
      </ul>
      {a.session_count > a.sessions.length && (
        <p className="text-xs text-muted-foreground">
          Mostrando as {a.sessions.length} sessões mais recentes de {a.session_count.toLocaleString('pt-BR')}.
        </p>
      )}
    </div>
  );
}

function SessionItem({ session: s, device }: { session: SharingSession; device: number }) {
  return (
    <li className="rounded-lg border border-border bg-muted/30 p-3">
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm lg:grid-cols-4">
        <SessionFact term="Dispositivo">
          Dispositivo {device} <span className="font-mono text-xs text-muted-foreground">({s.device})</span>
        </SessionFact>
        <SessionFact term="Navegador">{s.browser || 'Não identificado'}</SessionFact>
        <SessionFact term="Rede aproximada">{s.network || 'Não identificada'}</SessionFact>
        <SessionFact term="Aula">{s.lesson_title ?? 'Aula excluída'}</SessionFact>
        <SessionFact term="Início">{formatDateTime(s.started_at)}</SessionFact>
        <SessionFact term="Último sinal">{formatDateTime(s.last_heartbeat_at)}</SessionFact>
        <SessionFact term="Fim" wide>
          {s.ended_at ? (
            `${formatDateTime(s.ended_at)} · ${s.end_reason ? END_REASON[s.end_reason] : 'encerrada'}`
          ) : (
            <Badge variant="warning">Assistindo agora</Badge>
          )}
        </SessionFact>
      </dl>
    </li>
  );
}

function SessionFact({ term, children, wide }: { term: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? 'col-span-2 min-w-0' : 'min-w-0'}>
      <dt className="text-xs text-muted-foreground">{term}</dt>
      <dd className="[overflow-wrap:anywhere]">{children}</dd>
    </div>
  );
}
