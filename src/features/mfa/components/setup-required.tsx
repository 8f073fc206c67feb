import { ShieldAlert } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { useSession } from '@/platform/session';
import { ActivateButton } from './activate-button';

/** The admin area of a school that requires two-factor sign-in, for a staff account without it. */
export function SecondFactorSetupRequired() {
  const { user, school, signOut } = useSession();
  if (!user) return null;
  return (
    <main className="flex min-h-dvh items-center justify-center bg-background p-4">
      <Card className="w-full max-w-md">
        <CardHeader className="items-center text-center">
          <span className="mb-2 flex size-12 items-center justify-center rounded-full bg-amber-100 text-amber-700" aria-hidden="true">
            <ShieldAlert className="size-6" />
          </span>
          <h1 className="text-xl font-semibold">Ative a verificação em duas etapas</h1>
          <CardDescription>
            {school?.name ?? 'Sua escola'} exige a verificação em duas etapas da equipe. Ative-a para usar a área administrativa.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-2">
          <ActivateButton userId={user.id} issuer={school?.member_area_name || school?.name || 'Área de Membros'} label="Ativar agora" className="w-full" />
          <Button variant="link" onClick={() => void signOut()}>
            Sair
          </Button>
        </CardContent>
      </Card>
    </main>
  );
}
