// The course's "Programa de afiliados" for a student (issue 43): "Quero ser afiliado", then where the
// application stands, and for an approved affiliate the course's link with a copy button. An affiliation is
// one per account and school (docs/affiliates.md); the course's program is known to the student only through
// the approved affiliate's panel, so a course without one answers the application with the server's reason.
import { Copy } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { LoadError } from '@/components/ui/load-error';
import { copyText } from '@/platform/clipboard';
import { useAffiliatePanel, useApplyAsAffiliate } from '../api/hooks';
import { affiliateLink, type AffiliatePanel } from '../api/queries';

const STATUS_TEXT = {
  pending: 'Seu pedido para ser afiliado está em análise pela escola.',
  refused: 'A escola recusou seu pedido para ser afiliado.',
  blocked: 'Sua afiliação foi bloqueada pela escola.',
} as const;

export function AffiliateCard({ courseId, userId }: { courseId: string; userId: string }) {
  const panel = useAffiliatePanel(userId);
  const apply = useApplyAsAffiliate();
  if (panel.isPending) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Programa de afiliados</CardTitle>
        <CardDescription>Divulgue este curso com o seu link e receba uma comissão por venda.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {panel.isError ? (
          <LoadError title="Não foi possível carregar sua afiliação" onRetry={panel.refetch} />
        ) : !panel.data.affiliate ? (
          <div>
            <Button onClick={() => apply.mutate(courseId)} disabled={apply.isPending}>
              {apply.isPending ? 'Enviando...' : 'Quero ser afiliado'}
            </Button>
          </div>
        ) : panel.data.affiliate.status === 'approved' ? (
          <ApprovedLink panel={panel.data} courseId={courseId} />
        ) : (
          <p className="text-sm text-muted-foreground" role="status">
            {STATUS_TEXT[panel.data.affiliate.status as keyof typeof STATUS_TEXT]}
          </p>
        )}
      </CardContent>
    </Card>
  );
}

function ApprovedLink({ panel, courseId }: { panel: AffiliatePanel; courseId: string }) {
  const course = panel.courses.find((c) => c.course_id === courseId);
  if (!course) return <p className="text-sm text-muted-foreground">Este curso não tem programa de afiliados.</p>;
  const link = affiliateLink(window.location.origin, panel.school_slug, course.slug, panel.affiliate!.code);
  return (
    <div className="grid gap-2">
      <p className="text-sm">
        Você é afiliado. Comissão de {course.commission_percent.toLocaleString('pt-BR')}% sobre o valor pago, para
        compras em até {course.cookie_days} dias depois do clique no seu link.
      </p>
      <Label htmlFor={`afiliado-link-${courseId}`}>Seu link de afiliado</Label>
      <div className="flex min-w-0 gap-2">
        <Input
          id={`afiliado-link-${courseId}`}
          value={link}
          readOnly
          className="min-w-0 flex-1"
          onFocus={(e) => e.currentTarget.select()}
        />
        <Button
          type="button"
          variant="outline"
          onClick={() => void copyText(link, 'Link copiado', link)}
          aria-label="Copiar link de afiliado"
        >
          <Copy aria-hidden="true" />
          <span className="hidden sm:inline">Copiar</span>
        </Button>
      </div>
    </div>
  );
}
