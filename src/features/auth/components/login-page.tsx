import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { SearchX } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { PageSpinner, Spinner } from '@/components/ui/spinner';
import { StorageImage } from '@/components/ui/storage-image';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { authLinkError, clearAuthLinkError } from '@/platform/auth-link';
import { applyBrandColors } from '@/concepts/brand';
import { useSession } from '@/platform/session';
import { useSchoolLogin } from '../api/school-login';
import { LoginBanner } from './login-banner';
import { LoginForm } from './login-form';

// Only a first access or a recovery link needs it: its dialog, form and validation stay off the login
// page's download.
const ChangePasswordDialog = lazy(() => import('./change-password-dialog').then((m) => ({ default: m.ChangePasswordDialog })));
// The floating support button shows after the school's data anyway: its code (and the phone
// formatting it needs) comes then, off the first download.
const WhatsAppButton = lazy(() => import('./whatsapp-button').then((m) => ({ default: m.WhatsAppButton })));
// The 'Criar Conta' tab (and its form library) loads when the tab is about to be opened.
const loadSignUpForm = () => import('./sign-up-form');
const SignUpForm = lazy(() => loadSignUpForm().then((m) => ({ default: m.SignUpForm })));

/** /auth (no school) and /{slug} (the school's branded login page). `secondStep` (the two-factor code,
 * composed by the route) takes the place of the tabs once the password was accepted. */
export function LoginPage({ slug, secondStep }: { slug?: string; secondStep?: ReactNode }) {
  const schoolQ = useSchoolLogin(slug);
  const school = slug ? (schoolQ.data ?? null) : null;
  const { user, mustChangePassword, passwordRecovery, authFlowPending } = useSession();
  // A recovery link that was used already or expired lands here with the error in the fragment.
  const [linkError] = useState(authLinkError);
  useEffect(clearAuthLinkError, []);

  useEffect(() => {
    applyBrandColors(school?.primary_color, school?.secondary_color);
  }, [school]);

  useEffect(() => {
    const previous = document.title;
    document.title = school ? `Entrar · ${school.member_area_name || school.name}` : 'Entrar · Área de Membros';
    return () => {
      document.title = previous;
    };
  }, [school]);

  if (slug && schoolQ.isPending) return <PageSpinner />;
  if (slug && (schoolQ.isError || !school)) return <SchoolNotFound failed={schoolQ.isError} />;

  const title = school?.member_area_name || school?.name || 'Área de Membros';
  return (
    <div className="min-h-dvh bg-background lg:grid lg:grid-cols-2">
      <LoginBanner school={school} className="h-48 sm:h-60 lg:sticky lg:top-0 lg:h-dvh" />
      <main className="relative flex justify-center px-4 pb-12 lg:items-center lg:px-10 lg:py-12">
        <div className="-mt-10 w-full max-w-md lg:mt-0">
          <Card className="shadow-lg lg:shadow-sm">
            <CardHeader className="items-center pb-4 text-center">
              {school?.logo_url && <StorageImage src={school.logo_url} sizes="160px" widths={[160, 320, 480]} loading="eager" alt={`Logo de ${school.name}`} className="mb-2 h-12 w-auto max-w-40 object-contain" />}
              <h1 className="text-xl leading-tight font-semibold sm:text-2xl">{title}</h1>
              <CardDescription>{school ? `Acesse sua área de membros da ${school.name}` : 'Acesse sua área de membros'}</CardDescription>
            </CardHeader>
            <CardContent>
              {linkError && (
                <p role="alert" className="mb-4 rounded-lg border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm font-medium text-destructive">
                  Link inválido ou expirado. Peça um novo.
                </p>
              )}
              {secondStep ?? (
                <Tabs defaultValue="login">
                  <TabsList className="grid w-full grid-cols-2">
                    <TabsTrigger value="login">Login</TabsTrigger>
                    <TabsTrigger value="signup" onPointerEnter={() => void loadSignUpForm()} onFocus={() => void loadSignUpForm()}>
                      Criar Conta
                    </TabsTrigger>
                  </TabsList>
                  <TabsContent value="login">
                    <LoginForm schoolSlug={school?.slug} />
                  </TabsContent>
                  <TabsContent value="signup">
                    <Suspense
                      fallback={
                        <div className="flex justify-center py-10">
                          <Spinner className="size-8" />
                        </div>
                      }
                    >
                      <SignUpForm schoolId={school?.id} schoolSlug={school?.slug} />
                    </Suspense>
                  </TabsContent>
                </Tabs>
              )}
            </CardContent>
          </Card>
          <p className="mt-6 text-center text-xs text-muted-foreground">© {new Date().getFullYear()} {school?.name ?? 'Área de Membros'}</p>
        </div>
      </main>
      {school?.support_whatsapp && (
        <Suspense fallback={null}>
          <WhatsAppButton number={school.support_whatsapp} />
        </Suspense>
      )}
      {!!user && (mustChangePassword || passwordRecovery) && !authFlowPending && !secondStep && (
        <Suspense fallback={null}>
          <ChangePasswordDialog open recovery={passwordRecovery} />
        </Suspense>
      )}
    </div>
  );
}

function SchoolNotFound({ failed }: { failed: boolean }) {
  return (
    <main className="flex min-h-dvh items-center justify-center bg-background p-4">
      <Card className="w-full max-w-md text-center">
        <CardHeader className="items-center">
          <span className="mb-2 flex size-12 items-center justify-center rounded-full bg-muted text-muted-foreground" aria-hidden="true">
            <SearchX className="size-6" />
          </span>
          <h1 className="text-xl font-semibold">Escola não encontrada</h1>
          <CardDescription>
            {failed ? 'Não foi possível carregar a escola. Tente novamente mais tarde.' : 'Verifique o endereço de acesso enviado pela sua escola.'}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Button asChild variant="outline">
            <Link to="/auth">Ir para o login</Link>
          </Button>
        </CardContent>
      </Card>
    </main>
  );
}
