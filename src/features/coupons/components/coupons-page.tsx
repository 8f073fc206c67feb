// Cupons (issue 24): every coupon of the school with its discount, validity, uses (and the pending
// ones), the revenue of the confirmed sales that used it, and an Ativo switch. A coupon is created and
// edited in a dialog; a used one is deactivated rather than deleted (deleting would erase its uses and
// numbers, and a pending payment would lose its reservation).
import type { CourseOption } from '@/concepts/course-filter';
import { useState } from 'react';
import { Plus, TicketPercent } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DataTable } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { AdminPage, PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { DeleteRowButton, EditRowButton } from '@/components/ui/row-actions';
import { formatDate, formatMoney } from '@/utils/format';
import { useCoupons, useDeleteCoupon, useSetCouponActive, type AdminCoupon } from '../api/hooks';
import { CouponDialog } from './coupon-dialog';

let percent: Intl.NumberFormat | undefined;
/** "20%" or "12,5%" for a percentage, "R$ 50,00" for a fixed value. */
function discountLabel(c: Pick<AdminCoupon, 'kind' | 'amount'>): string {
  if (c.kind === 'fixed') return formatMoney(c.amount);
  percent ??= new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 2 });
  return `${percent.format(c.amount)}%`;
}

function validityLabel(c: Pick<AdminCoupon, 'valid_from' | 'valid_until'>): string {
  if (c.valid_from && c.valid_until) return `${formatDate(c.valid_from)} a ${formatDate(c.valid_until)}`;
  if (c.valid_from) return `A partir de ${formatDate(c.valid_from)}`;
  if (c.valid_until) return `Até ${formatDate(c.valid_until)}`;
  return 'Sem prazo';
}

/** Why a coupon would not apply today, as the checkout would say it; null when it applies. */
function stateBadge(c: AdminCoupon, now: number): string | null {
  if (c.valid_until && new Date(c.valid_until).getTime() <= now) return 'Expirado';
  if (c.valid_from && new Date(c.valid_from).getTime() > now) return 'Agendado';
  if (c.max_uses !== null && c.uses + c.reserved >= c.max_uses) return 'Esgotado';
  return null;
}

function UsesCell({ c }: { c: AdminCoupon }) {
  return (
    <>
      <span className="whitespace-nowrap">{c.max_uses === null ? c.uses : `${c.uses} de ${c.max_uses}`}</span>
      {c.reserved > 0 && (
        <span className="block text-xs whitespace-nowrap text-muted-foreground">
          (+{c.reserved} {c.reserved === 1 ? 'pendente' : 'pendentes'})
        </span>
      )}
      {c.max_uses_per_buyer !== null && (
        <span className="block text-xs whitespace-nowrap text-muted-foreground">
          {c.max_uses_per_buyer} por comprador
        </span>
      )}
    </>
  );
}

export function CouponsPage({ schoolId, courses }: { schoolId: string; courses: CourseOption[] }) {
  const coupons = useCoupons(schoolId);
  const setActive = useSetCouponActive();
  const remove = useDeleteCoupon();
  const [editing, setEditing] = useState<{ coupon: AdminCoupon | null } | null>(null);
  const [deleting, setDeleting] = useState<AdminCoupon | null>(null);
  const [now] = useState(() => Date.now());
  const list = coupons.data ?? [];
  const used = !!deleting && deleting.uses + deleting.reserved > 0;

  return (
    <AdminPage>
      <PageHeader
        title="Cupons"
        description="Descontos para as suas campanhas: o aluno digita o código no checkout, ou abre o link do curso com ?cupom=CODIGO."
        actions={
          <Button onClick={() => setEditing({ coupon: null })}>
            <Plus aria-hidden="true" /> Novo Cupom
          </Button>
        }
      />
      {coupons.isPending ? (
        <Skeleton className="h-48 rounded-xl" />
      ) : coupons.isError ? (
        <LoadError title="Não foi possível carregar os cupons" onRetry={coupons.refetch} />
      ) : list.length === 0 ? (
        <EmptyState
          icon={TicketPercent}
          title="Nenhum cupom criado ainda"
          description="Crie um cupom de porcentagem ou de valor fixo para divulgar nas suas campanhas."
        />
      ) : (
        <DataTable
          caption="Cupons da escola"
          columns={['Código', 'Desconto', 'Validade', 'Usos', 'Receita', 'Ativo', 'Ações']}
          minWidth="48rem"
        >
          {list.map((c) => {
            const badge = stateBadge(c, now);
            return (
              <tr key={c.id} className="border-t border-border align-top">
                <th scope="row" className="px-4 py-3 font-normal">
                  <span className="flex flex-wrap items-center gap-2">
                    <span className="font-mono font-semibold">{c.code}</span>
                    {badge && <Badge variant="warning">{badge}</Badge>}
                  </span>
                  <span className="block text-xs text-muted-foreground">
                    {c.all_courses
                      ? 'Todos os cursos'
                      : c.course_ids.length === 1
                        ? '1 curso'
                        : `${c.course_ids.length} cursos`}
                  </span>
                </th>
                <td className="px-4 py-3 font-medium whitespace-nowrap">{discountLabel(c)}</td>
                <td className="px-4 py-3">{validityLabel(c)}</td>
                <td className="px-4 py-3">
                  <UsesCell c={c} />
                </td>
                <td className="px-4 py-3 whitespace-nowrap">
                  {formatMoney(c.revenue)}
                  {c.discounts > 0 && (
                    <span className="block text-xs text-muted-foreground">{formatMoney(c.discounts)} em descontos</span>
                  )}
                </td>
                <td className="px-4 py-3">
                  <Switch
                    checked={c.is_active}
                    disabled={setActive.isPending && setActive.variables.id === c.id}
                    onCheckedChange={(is_active) => setActive.mutate({ id: c.id, is_active })}
                    aria-label={`Cupom ${c.code} ativo`}
                  />
                </td>
                <td className="px-2 py-1">
                  <div className="flex">
                    <EditRowButton name={c.code} onClick={() => setEditing({ coupon: c })} iconOnly />
                    <DeleteRowButton name={c.code} onClick={() => setDeleting(c)} iconOnly />
                  </div>
                </td>
              </tr>
            );
          })}
        </DataTable>
      )}
      {editing && (
        <CouponDialog editing={editing.coupon} schoolId={schoolId} courses={courses} onClose={() => setEditing(null)} />
      )}
      {used ? (
        <ConfirmDialog
          open
          onOpenChange={(o) => !o && setDeleting(null)}
          title="Este cupom já foi usado"
          description={`${deleting.code} tem ${deleting.uses + deleting.reserved} ${deleting.uses + deleting.reserved === 1 ? 'uso' : 'usos'} (contando os pendentes). Excluir apagaria os números dele; ${
            deleting.is_active
              ? 'desative-o para que ele deixe de valer no checkout.'
              : 'ele já está desativado e não vale no checkout.'
          } As vendas continuam mostrando o código.`}
          confirmLabel={deleting.is_active ? 'Desativar' : 'Entendi'}
          cancelLabel={deleting.is_active ? 'Cancelar' : 'Fechar'}
          destructive={false}
          pending={setActive.isPending}
          onConfirm={() =>
            deleting.is_active
              ? setActive.mutate({ id: deleting.id, is_active: false }, { onSettled: () => setDeleting(null) })
              : setDeleting(null)
          }
        />
      ) : (
        <ConfirmDialog
          open={!!deleting}
          onOpenChange={(o) => !o && setDeleting(null)}
          title="Excluir cupom?"
          description={`O código ${deleting?.code ?? ''} deixará de valer no checkout. Esta ação não pode ser desfeita.`}
          confirmLabel="Excluir"
          pending={remove.isPending}
          onConfirm={() => deleting && remove.mutate(deleting.id, { onSettled: () => setDeleting(null) })}
        />
      )}
    </AdminPage>
  );
}
