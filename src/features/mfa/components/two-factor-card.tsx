import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { LoadError } from '@/components/ui/load-error';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { formatDate } from '@/utils/format';
import { useVerifiedFactor } from '../api/hooks';
import { ActivateButton } from './activate-button';
import { DisableDialog } from './disable-dialog';

/** Profile card of staff accounts: turn two-factor sign-in (TOTP) on or off. */
export function TwoFactorCard({ userId, issuer, required }: { userId: string; issuer: string; required?: boolean }) {
  const factor = useVerifiedFactor(userId);
  const [disabling, setDisabling] = useState(false);
  const active = factor.data ?? null;
  return (
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle>Verificação em duas etapas</CardTitle>
          {factor.isSuccess && <Badge variant={active ? 'success' : 'secondary'}>{active ? 'Ativa' : 'Desativada'}</Badge>}
        </div>
        <CardDescription>
          Além da senha, a entrada pede um código de 6 dígitos do aplicativo autenticador do seu celular. Quem descobrir sua senha não entra sem ele.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap items-center justify-between gap-3">
        {factor.isPending ? (
          <Spinner className="size-6" />
        ) : factor.isError ? (
          <LoadError className="w-full" title="Não foi possível carregar a verificação em duas etapas" onRetry={factor.refetch} />
        ) : active ? (
          <>
            <p className="text-sm text-muted-foreground">Ativada em {formatDate(active.createdAt)}.</p>
            {required ? (
              <p className="text-sm text-muted-foreground">Sua escola exige a verificação em duas etapas da equipe.</p>
            ) : (
              <Button variant="outline" onClick={() => setDisabling(true)}>
                Desativar
              </Button>
            )}
            {disabling && <DisableDialog userId={userId} factorId={active.id} open onOpenChange={setDisabling} />}
          </>
        ) : (
          <>
            <p className="text-sm text-muted-foreground">Desativada: a senha basta para entrar.</p>
            <ActivateButton userId={userId} issuer={issuer} />
          </>
        )}
      </CardContent>
    </Card>
  );
}
