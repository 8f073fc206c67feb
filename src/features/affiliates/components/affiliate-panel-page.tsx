// "Painel do afiliado" (issue 43), from the account menu: for an approved affiliate, each course's links with
// copy buttons, its clicks, sales and commissions by state in a period, and its materials; and the
// "Carteira Asaas" the commissions are paid to (components/wallet-card.tsx).
import { useState } from 'react';
import { Copy } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { LoadError } from '@/components/ui/load-error';
import { PageSpinner } from '@/components/ui/spinner';
import { copyText } from '@/platform/clipboard';
import { formatMoney } from '@/utils/format';
import { useAffiliatePanel } from '../api/hooks';
import { affiliateLink, type PanelCourse } from '../api/queries';
import { WalletCard } from './wallet-card';

const STATES = [
  ['pending', 'Pendentes'],
  ['confirmed', 'Confirmadas'],
  ['available', 'Disponíveis'],
  ['reversed', 'Estornadas'],
] as const;

export function AffiliatePanelPage({ userId }: { userId: string }) {
  const [period, setPeriod] = useState<{ from?: string; to?: string }>({});
  const panel = useAffiliatePanel(userId, period);
  return (
    <div className="mx-auto grid w-full max-w-5xl gap-6 px-4 py-8 sm:px-6">
      <h1 className="text-2xl font-bold">Painel do afiliado</h1>
      {panel.isPending ? (
        <PageSpinner />
      ) : panel.isError ? (
        <LoadError title="Não foi possível carregar o painel" onRetry={panel.refetch} />
      ) : panel.data.affiliate?.status !== 'approved' ? (
        <p className="text-muted-foreground">
          O painel é dos afiliados aprovados pela escola. Peça sua afiliação pelo link do programa de afiliados que a
          escola divulga.
        </p>
      ) : (
        <>
          <WalletCard userId={userId} affiliate={panel.data.affiliate} />
          <div className="flex flex-wrap items-end gap-3" role="group" aria-label="Período">
            <div className="grid gap-2">
              <Label htmlFor="afiliado-de">De</Label>
              <Input
                id="afiliado-de"
                type="date"
                value={period.from ?? panel.data.from}
                onChange={(e) => setPeriod((p) => ({ ...p, from: e.target.value || undefined }))}
              />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="afiliado-ate">Até</Label>
              <Input
                id="afiliado-ate"
                type="date"
                value={period.to ?? panel.data.to}
                onChange={(e) => setPeriod((p) => ({ ...p, to: e.target.value || undefined }))}
              />
            </div>
          </div>
          {panel.data.courses.length === 0 ? (
            <p className="text-muted-foreground">Nenhum curso da escola tem programa de afiliados agora.</p>
          ) : (
            panel.data.courses.map((course) => (
              <CourseCard
                key={course.course_id}
                course={course}
                schoolSlug={panel.data.school_slug}
                code={panel.data.affiliate!.code}
              />
            ))
          )}
        </>
      )}
    </div>
  );
}

function CourseCard({ course, schoolSlug, code }: { course: PanelCourse; schoolSlug: string; code: string }) {
  const coursePage = affiliateLink(window.location.origin, schoolSlug, course.slug, code);
  const checkout = `${window.location.origin}/checkout/${encodeURIComponent(course.slug)}?afiliado=${code}`;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{course.title}</CardTitle>
        <CardDescription>
          Comissão de {course.commission_percent.toLocaleString('pt-BR')}% · compras em até {course.cookie_days} dias
          depois do clique
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <CopyField
          id={`link-${course.course_id}`}
          label="Link da página do curso"
          value={coursePage}
          copyLabel={`Copiar link da página de ${course.title}`}
        />
        <CopyField
          id={`checkout-${course.course_id}`}
          label="Link do checkout"
          value={checkout}
          copyLabel={`Copiar link do checkout de ${course.title}`}
        />
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6" aria-label={`Números de ${course.title}`}>
          <Figure label="Cliques" value={course.clicks.toLocaleString('pt-BR')} />
          <Figure label="Vendas" value={course.sales.toLocaleString('pt-BR')} />
          {STATES.map(([state, label]) => (
            <Figure key={state} label={label} value={formatMoney(course.commissions[state])} />
          ))}
        </dl>
        {(course.materials_text || course.materials_links.length > 0) && (
          <section className="grid gap-2" aria-label={`Materiais de ${course.title}`}>
            <h3 className="font-semibold">Materiais</h3>
            {course.materials_text && <p className="whitespace-pre-line text-sm">{course.materials_text}</p>}
            {course.materials_links.length > 0 && (
              <ul className="grid gap-1 text-sm">
                {course.materials_links.map((m) => (
                  <li key={m.url}>
                    <a
                      href={m.url}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="text-primary underline underline-offset-4"
                    >
                      {m.kind === 'image' ? `Imagem: ${m.title}` : m.title}
                    </a>
                  </li>
                ))}
              </ul>
            )}
          </section>
        )}
      </CardContent>
    </Card>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-lg border border-border p-3">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-lg font-semibold">{value}</dd>
    </div>
  );
}

function CopyField({ id, label, value, copyLabel }: { id: string; label: string; value: string; copyLabel: string }) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex min-w-0 gap-2">
        <Input id={id} value={value} readOnly className="min-w-0 flex-1" onFocus={(e) => e.currentTarget.select()} />
        <Button
          type="button"
          variant="outline"
          onClick={() => void copyText(value, 'Link copiado', value)}
          aria-label={copyLabel}
        >
          <Copy aria-hidden="true" />
          <span className="hidden sm:inline">Copiar</span>
        </Button>
      </div>
    </div>
  );
}
