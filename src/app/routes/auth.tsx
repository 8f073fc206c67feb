import { lazy, Suspense } from 'react';
import { useParams } from 'react-router-dom';
import { Spinner } from '@/components/ui/spinner';
import { LoginPage } from '@/features/auth/components/login-page';
import { useSession } from '@/platform/session';

// Only accounts with two-factor sign-in need it: off the login page's first download.
const SecondFactorStep = lazy(() =>
  import('@/features/mfa/components/second-factor-step').then((m) => ({ default: m.SecondFactorStep })),
);

/** /auth and /:slug; after the password, the two-factor code when the account has it on. */
export default function AuthRoute() {
  const { slug } = useParams();
  const { user, needsSecondFactor, authFlowPending } = useSession();
  const secondStep =
    user && needsSecondFactor && !authFlowPending ? (
      <Suspense
        fallback={
          <div className="flex justify-center py-10">
            <Spinner className="size-8" />
          </div>
        }
      >
        <SecondFactorStep />
      </Suspense>
    ) : undefined;
  return <LoginPage key={slug ?? ''} slug={slug} secondStep={secondStep} />;
}
