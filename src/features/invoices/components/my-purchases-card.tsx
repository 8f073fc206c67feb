// Perfil → Minhas compras (issue 42): each of the student's paid purchases, newest first, with what was
// bought, when, the value, and its nota fiscal: "Nota fiscal (PDF)" and "XML" once the municipality issued
// it, otherwise where it stands. Nothing shows for someone who never bought.
import { useState } from 'react';
import { FileDown, FileCode2 } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { LoadError } from '@/components/ui/load-error';
import { Pagination } from '@/components/ui/pagination';
import { formatDate, formatMoney } from '@/utils/format';
import { useMyPurchases } from '../api/hooks';
import { PURCHASES_PAGE_SIZE, type MyPurchase } from '../api/queries';
import { hasDocument, invoiceStatusOf } from '../lib/labels';

const METHOD: Record<string, string> = { PIX: 'PIX', BOLETO: 'Boleto', CREDIT_CARD: 'Cartão' };
const REFUNDED = new Set(['REFUNDED', 'CHARGEBACK']);

const titleOf = (p: MyPurchase) => p.items.map((i) => i.title).join(' + ') || 'Compra';

export function MyPurchasesCard({ userId }: { userId: string }) {
  const [page, setPage] = useState(0);
  const purchases = useMyPurchases(userId, page);
  if (purchases.isPending || (purchases.data && purchases.data.total === 0)) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Minhas compras</CardTitle>
        <CardDescription>Seus pagamentos e as notas fiscais de cada um.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {purchases.isError ? (
          <LoadError title="Não foi possível carregar suas compras" onRetry={purchases.refetch} />
        ) : (
          <>
            <ul className="grid gap-3" aria-label="Compras">
              {purchases.data.rows.map((p) => (
                <Purchase key={p.payment_id} purchase={p} />
              ))}
            </ul>
            <Pagination
              page={page}
              pageSize={PURCHASES_PAGE_SIZE}
              total={purchases.data.total}
              onPageChange={setPage}
              label="Páginas das compras"
              noun={['compra', 'compras']}
            />
          </>
        )}
      </CardContent>
    </Card>
  );
}

function Purchase({ purchase: p }: { purchase: MyPurchase }) {
  const title = titleOf(p);
  const invoice = p.invoice_status ? invoiceStatusOf(p.invoice_status) : null;
  return (
    <li className="grid gap-3 rounded-lg border border-border p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="min-w-0 font-semibold break-words">{title}</p>
        {REFUNDED.has(p.payment_status) && (
          <Badge variant="outline">{p.payment_status === 'CHARGEBACK' ? 'Chargeback' : 'Reembolsada'}</Badge>
        )}
      </div>
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-xs text-muted-foreground">Data</dt>
          <dd className="font-medium">{formatDate(p.paid_at)}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">Valor</dt>
          <dd className="font-medium tabular-nums">{formatMoney(p.value)}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">Forma de pagamento</dt>
          <dd className="font-medium">{METHOD[p.billing_type] ?? p.billing_type}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">Nota fiscal</dt>
          <dd className="font-medium">
            {invoice
              ? p.invoice_number && hasDocument(p.invoice_status)
                ? `Nº ${p.invoice_number}`
                : invoice.label
              : 'Sem nota'}
          </dd>
        </div>
      </dl>
      {hasDocument(p.invoice_status) && (p.invoice_pdf_url || p.invoice_xml_url) && (
        <div className="flex flex-wrap gap-2">
          {p.invoice_pdf_url && (
            <Button asChild size="sm" variant="outline">
              <a
                href={p.invoice_pdf_url}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={`Nota fiscal (PDF) de ${title}`}
              >
                <FileDown aria-hidden="true" /> Nota fiscal (PDF)
              </a>
            </Button>
          )}
          {p.invoice_xml_url && (
            <Button asChild size="sm" variant="ghost">
              <a
                href={p.invoice_xml_url}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={`XML da nota fiscal de ${title}`}
              >
                <FileCode2 aria-hidden="true" /> XML
              </a>
            </Button>
          )}
        </div>
      )}
    </li>
  );
}
