// Vendas → "Notas fiscais" (issue 42): the period's totals (issued, cancelled, with error, ISS; the period is
// Vendas' De/Até), the filter "Notas com erro" (?notas=erro&notas_pagina=2 in the URL) with the municipality's
// message and "Emitir novamente", and the accountant's monthly CSV.
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { AlertTriangle, Ban, Download, FileCheck2, Landmark, Loader2, RotateCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { LoadError } from '@/components/ui/load-error';
import { Pagination } from '@/components/ui/pagination';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDate, formatMoney } from '@/utils/format';
import { useAdminInvoices, useExportMonthInvoices, useInvoiceTotals, useRetryInvoice } from '../../api/hooks';
import { INVOICES_PAGE_SIZE, type InvoicePeriod } from '../../api/queries';

const ERRORS_PARAM = 'notas';
const ERRORS_PAGE_PARAM = 'notas_pagina';

/** This month in Brazil (aaaa-mm): the export's default. */
function thisMonth(): string {
  return new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', timeZone: 'America/Sao_Paulo' })
    .format(new Date())
    .slice(0, 7);
}

export function InvoicesPanel({ schoolId, period }: { schoolId: string; period: InvoicePeriod }) {
  const id = useId();
  const [params, setParams] = useSearchParams();
  const showErrors = params.get(ERRORS_PARAM) === 'erro';
  const errorsPage = Math.max(0, (Number.parseInt(params.get(ERRORS_PAGE_PARAM) ?? '', 10) || 1) - 1);
  const totals = useInvoiceTotals(schoolId, period);
  const t = totals.data;
  const setErrors = (on: boolean, page = 0) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (on) next.set(ERRORS_PARAM, 'erro');
        else next.delete(ERRORS_PARAM);
        if (on && page > 0) next.set(ERRORS_PAGE_PARAM, String(page + 1));
        else next.delete(ERRORS_PAGE_PARAM);
        return next;
      },
      { replace: false },
    );
  const cards = [
    {
      key: 'issued',
      label: 'Emitidas',
      value: t && t.issued.toLocaleString('pt-BR'),
      hint: t && formatMoney(t.issued_value),
      icon: FileCheck2,
    },
    {
      key: 'cancelled',
      label: 'Canceladas',
      value: t && t.cancelled.toLocaleString('pt-BR'),
      hint: 'por reembolso ou chargeback',
      icon: Ban,
    },
    {
      key: 'errors',
      label: 'Com erro',
      value: t && t.errors.toLocaleString('pt-BR'),
      hint: 'recusadas pela prefeitura',
      icon: AlertTriangle,
    },
    { key: 'iss', label: 'ISS', value: t && formatMoney(t.iss), hint: 'das notas emitidas', icon: Landmark },
  ];
  return (
    <section aria-labelledby={`${id}-title`} className="grid min-w-0 gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={`${id}-title`} className="text-base font-semibold">
          Notas fiscais
        </h2>
        <p className="text-sm text-muted-foreground">
          {t
            ? t.waiting
              ? `${t.waiting.toLocaleString('pt-BR')} aguardando emissão`
              : ''
            : totals.isError
              ? 'Não foi possível carregar os totais das notas.'
              : ''}
        </p>
      </div>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" aria-label="Totais das notas fiscais">
        {cards.map(({ key, label, value, hint, icon: Icon }) => (
          <li key={key} className="flex items-center gap-3 rounded-xl border border-border bg-white p-4 shadow-xs">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
              <Icon aria-hidden="true" className="size-5" />
            </span>
            <div className="min-w-0">
              <p className="text-sm text-muted-foreground" id={`${id}-${key}`}>
                {label}
              </p>
              <div className="text-xl font-bold whitespace-nowrap tabular-nums" aria-labelledby={`${id}-${key}`}>
                {value ?? (totals.isError ? '—' : <Skeleton className="inline-block h-6 w-16 align-middle" />)}
              </div>
              <p className="text-xs text-muted-foreground">{hint}</p>
            </div>
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <Button
          variant={showErrors ? 'default' : 'outline'}
          aria-pressed={showErrors}
          onClick={() => setErrors(!showErrors)}
        >
          <AlertTriangle aria-hidden="true" /> Notas com erro{t ? ` (${t.errors.toLocaleString('pt-BR')})` : ''}
        </Button>
        <MonthExport schoolId={schoolId} />
      </div>
      {showErrors && (
        <ErrorInvoices schoolId={schoolId} period={period} page={errorsPage} onPage={(p) => setErrors(true, p)} />
      )}
    </section>
  );
}

function MonthExport({ schoolId }: { schoolId: string }) {
  const id = useId();
  const [month, setMonth] = useState(thisMonth);
  const exportCsv = useExportMonthInvoices();
  const valid = /^\d{4}-(0[1-9]|1[0-2])$/.test(month);
  return (
    <div className="flex flex-wrap items-end gap-2">
      <div className="grid gap-1">
        <Label htmlFor={`${id}-month`}>Mês das notas</Label>
        <Input
          id={`${id}-month`}
          type="month"
          className="w-44"
          value={month}
          max={thisMonth()}
          onChange={(e) => setMonth(e.target.value)}
        />
      </div>
      <Button
        variant="outline"
        disabled={!valid || exportCsv.isPending}
        onClick={() => exportCsv.mutate({ schoolId, month })}
      >
        {exportCsv.isPending ? (
          <Loader2 className="animate-spin" aria-hidden="true" />
        ) : (
          <Download aria-hidden="true" />
        )}{' '}
        Exportar notas do mês
      </Button>
    </div>
  );
}

function ErrorInvoices({
  schoolId,
  period,
  page,
  onPage,
}: {
  schoolId: string;
  period: InvoicePeriod;
  page: number;
  onPage: (page: number) => void;
}) {
  const list = useAdminInvoices(schoolId, 'error', period, page);
  const retry = useRetryInvoice();
  if (list.isPending) return <Skeleton className="h-32 rounded-xl" />;
  if (list.isError) return <LoadError title="Não foi possível carregar as notas com erro" onRetry={list.refetch} />;
  if (list.data.rows.length === 0)
    return (
      <p className="rounded-xl border border-border bg-white p-4 text-sm text-muted-foreground">
        Nenhuma nota com erro no período.
      </p>
    );
  return (
    <>
      <ul className="grid gap-3" aria-label="Notas com erro" aria-busy={list.isFetching}>
        {list.data.rows.map((i) => (
          <li key={i.id} className="grid gap-2 rounded-xl border border-destructive/40 bg-white p-4">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <div className="min-w-0">
                <p className="font-medium break-words">{i.buyer_name || 'Conta removida'}</p>
                <p className="text-sm break-words text-muted-foreground">
                  {i.course_title} · {formatMoney(i.value)} · {formatDate(i.created_at)}
                </p>
              </div>
              <Button
                size="sm"
                variant="outline"
                disabled={retry.isPending && retry.variables === i.id}
                onClick={() => retry.mutate(i.id)}
                aria-label={`Emitir novamente a nota de ${i.buyer_name || 'comprador'} (${i.course_title})`}
              >
                {retry.isPending && retry.variables === i.id ? (
                  <Loader2 className="animate-spin" aria-hidden="true" />
                ) : (
                  <RotateCw aria-hidden="true" />
                )}{' '}
                Emitir novamente
              </Button>
            </div>
            <p className="rounded-md bg-destructive/5 p-2 text-sm break-words text-destructive">
              <span className="font-medium">Mensagem da prefeitura:</span> {i.error_message || 'sem mensagem'}
            </p>
          </li>
        ))}
      </ul>
      <Pagination
        page={page}
        pageSize={INVOICES_PAGE_SIZE}
        total={list.data.total}
        onPageChange={onPage}
        label="Páginas das notas com erro"
        noun={['nota', 'notas']}
      />
    </>
  );
}
