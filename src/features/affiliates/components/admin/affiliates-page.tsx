// Afiliados (issue 43), for staff: the school's affiliates by status (Pedidos, Aprovados, Recusados,
// Bloqueados; the tab and the page in the URL: ?situacao=approved&pagina=2), each with its code, whether it
// has a wallet, clicks, sales and commissions by state; "Aprovar", "Recusar" and "Bloquear" (which asks first).
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DataTable } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { AdminPage, PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { formatMoney } from '@/utils/format';
import { useAdminAffiliates, useDecideAffiliate, useExportCommissions } from '../../api/admin-hooks';
import {
  AFFILIATE_STATUSES,
  AFFILIATES_PAGE_SIZE,
  type AdminAffiliate,
  type AffiliateStatus,
} from '../../api/admin-queries';

const TAB_LABEL: Record<AffiliateStatus, string> = {
  pending: 'Pedidos',
  approved: 'Aprovados',
  refused: 'Recusados',
  blocked: 'Bloqueados',
};
const EMPTY: Record<AffiliateStatus, string> = {
  pending: 'Nenhum pedido de afiliação esperando.',
  approved: 'Nenhum afiliado aprovado.',
  refused: 'Nenhum pedido recusado.',
  blocked: 'Nenhum afiliado bloqueado.',
};

export function AffiliatesPage({ schoolId }: { schoolId: string }) {
  const [search, setSearch] = useSearchParams();
  const asked = search.get('situacao');
  const status: AffiliateStatus = AFFILIATE_STATUSES.find((s) => s === asked) ?? 'pending';
  const page = Math.max(0, Number(search.get('pagina') ?? 1) - 1) || 0;
  const list = useAdminAffiliates(schoolId, status, page);
  const decide = useDecideAffiliate();
  const [blocking, setBlocking] = useState<AdminAffiliate | null>(null);
  const exportCsv = useExportCommissions();
  const go = (next: { situacao?: AffiliateStatus; pagina?: number }) =>
    setSearch({ situacao: next.situacao ?? status, ...(next.pagina ? { pagina: String(next.pagina + 1) } : {}) });

  return (
    <AdminPage>
      <PageHeader
        title="Afiliados"
        description="Quem divulga os cursos da escola por uma comissão: pedidos, aprovados e bloqueados."
        actions={
          <Button variant="outline" disabled={exportCsv.isPending} onClick={() => exportCsv.mutate(schoolId)}>
            {exportCsv.isPending ? 'Exportando...' : 'Exportar comissões (CSV)'}
          </Button>
        }
      />
      <Tabs value={status} onValueChange={(v) => go({ situacao: v as AffiliateStatus })}>
        <TabsList aria-label="Situação dos afiliados" className="h-auto flex-wrap justify-start">
          {AFFILIATE_STATUSES.map((s) => (
            <TabsTrigger key={s} value={s}>
              {TAB_LABEL[s]}
            </TabsTrigger>
          ))}
        </TabsList>
      </Tabs>
      {list.isPending ? (
        <Skeleton className="h-40 w-full" />
      ) : list.isError ? (
        <LoadError title="Não foi possível carregar os afiliados" onRetry={list.refetch} />
      ) : list.data.total === 0 ? (
        <EmptyState title={EMPTY[status]} />
      ) : (
        <>
          <DataTable
            caption={`Afiliados: ${TAB_LABEL[status]}`}
            columns={[
              'Afiliado',
              'Código',
              'Carteira',
              'Cliques',
              'Vendas',
              'Pendentes',
              'Confirmadas',
              'Disponíveis',
              'Estornadas',
              'Ações',
            ]}
            minWidth="72rem"
          >
            {list.data.rows.map((a) => (
              <tr key={a.id} className="border-t border-border align-top">
                <th scope="row" className="px-4 py-3 font-normal">
                  <span className="block font-medium">{a.name}</span>
                  <span className="block text-xs text-muted-foreground">{a.email}</span>
                </th>
                <td className="px-4 py-3 font-mono">{a.code}</td>
                <td className="px-4 py-3">{a.has_wallet ? 'Validada' : 'Sem carteira'}</td>
                <td className="px-4 py-3">{a.clicks.toLocaleString('pt-BR')}</td>
                <td className="px-4 py-3">{a.sales.toLocaleString('pt-BR')}</td>
                <td className="px-4 py-3 whitespace-nowrap">{formatMoney(a.pending)}</td>
                <td className="px-4 py-3 whitespace-nowrap">{formatMoney(a.confirmed)}</td>
                <td className="px-4 py-3 whitespace-nowrap">{formatMoney(a.available)}</td>
                <td className="px-4 py-3 whitespace-nowrap">{formatMoney(a.reversed)}</td>
                <td className="px-4 py-3">
                  <span className="flex flex-wrap gap-2">
                    {a.status !== 'approved' && (
                      <Button
                        size="sm"
                        disabled={decide.isPending}
                        onClick={() => decide.mutate({ id: a.id, status: 'approved' })}
                        aria-label={`Aprovar ${a.name}`}
                      >
                        Aprovar
                      </Button>
                    )}
                    {a.status === 'pending' && (
                      <Button
                        size="sm"
                        variant="outline"
                        disabled={decide.isPending}
                        onClick={() => decide.mutate({ id: a.id, status: 'refused' })}
                        aria-label={`Recusar ${a.name}`}
                      >
                        Recusar
                      </Button>
                    )}
                    {a.status === 'approved' && (
                      <Button
                        size="sm"
                        variant="outline"
                        onClick={() => setBlocking(a)}
                        aria-label={`Bloquear ${a.name}`}
                      >
                        Bloquear
                      </Button>
                    )}
                  </span>
                </td>
              </tr>
            ))}
          </DataTable>
          <Pagination
            page={page}
            pageSize={AFFILIATES_PAGE_SIZE}
            total={list.data.total}
            onPageChange={(p) => go({ pagina: p })}
            label="Páginas dos afiliados"
            noun={['afiliado', 'afiliados']}
          />
        </>
      )}
      <ConfirmDialog
        open={blocking !== null}
        onOpenChange={(open) => !open && setBlocking(null)}
        title={`Bloquear ${blocking?.name ?? ''}?`}
        description="O link deixa de contar cliques e de atribuir vendas. Comissões já registradas seguem o pagamento."
        confirmLabel="Bloquear"
        pending={decide.isPending}
        onConfirm={() =>
          blocking && decide.mutate({ id: blocking.id, status: 'blocked' }, { onSettled: () => setBlocking(null) })
        }
      />
    </AdminPage>
  );
}
