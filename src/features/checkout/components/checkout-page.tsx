// Checkout (SPEC §2/§4/§5/§8, issue 11): the order summary and the payment form. PIX is the default
// method; Cartão adds the card and holder fields. On success the browser goes to Asaas's invoice,
// which brings the student back to the course page afterwards. A reopen link (?retomar=<session>, issue
// 41) restores the course's coupon, bump and method; another account's link says so and shows nothing.
import { useEffect, useRef, type ReactNode } from 'react';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { toast } from '@/platform/toast';
import { Link2Off, Lock, SearchX } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { enrollmentAccess } from '@/concepts/enrollment';
import { useSession } from '@/platform/session';
import { RESUME_NOT_FOUND, useCheckoutCourse, useResumedCheckout, type CourseRef } from '../api/hooks';
import { CheckoutForm } from './checkout-form';

export function CheckoutPage({ courseRef, coupon = null, resume = null }: { courseRef: CourseRef | null; coupon?: string | null; resume?: string | null }) {
  const navigate = useNavigate();
  const { user, profile } = useSession();
  const course = useCheckoutCourse(courseRef, profile?.school_id, user?.id);
  const resumed = useResumedCheckout(resume, user?.id);
  const warned = useRef(false);

  // SPEC §8: with neither slug nor id, 'Redirecionando...' and back to the home page.
  useEffect(() => {
    if (courseRef) return;
    toast.message('Redirecionando...');
    navigate('/', { replace: true });
  }, [courseRef, navigate]);

  useEffect(() => {
    if (course.data === null && !warned.current) {
      warned.current = true;
      // SPEC §8's not-found toast: an answer of the read, not a failed mutation.
      toast.error('Curso não encontrado');
    }
  }, [course.data]);

  if (!courseRef) return null;
  if (course.isPending || (resume && resumed.isPending)) return <CheckoutSkeleton />;
  if (resumed.isError) return <ResumeError error={resumed.error} onRetry={resumed.refetch} />;
  if (course.isError)
    return (
      <div className="mx-auto max-w-lg px-4 py-20">
        <LoadError title="Não foi possível carregar o curso" onRetry={course.refetch} />
      </div>
    );
  if (!course.data)
    return (
      <Centered icon={SearchX} title="Curso não encontrado" text="Este curso não existe ou não está disponível para você.">
        <Button asChild variant="outline">
          <Link to="/">Voltar</Link>
        </Button>
      </Centered>
    );
  // Already enrolled (or the reopened checkout was paid): to the course instead of paying twice.
  const r = resumed.data?.course_id === course.data.id ? resumed.data : undefined;
  if (enrollmentAccess(course.data.enrollments[0]) === 'active' || r?.already_enrolled || r?.outcome === 'paid') return <AlreadyEnrolled courseId={course.data.id} />;
  if (course.data.status !== 'PUBLISHED' || !(course.data.price > 0))
    return (
      <Centered icon={Lock} title="Este curso não está à venda" text="Fale com a sua escola para saber como ter acesso.">
        <Button asChild variant="outline">
          <Link to={`/course/${course.data.id}`}>Ver curso</Link>
        </Button>
      </Centered>
    );
  return <CheckoutForm course={course.data} userId={user?.id} email={user?.email ?? ''} profile={profile} coupon={r ? r.coupon_code : coupon} resumed={r} />;
}

/** A reopen link that could not be read: another account's (or none, P0002) says so and shows nothing; anything else retries. */
export function ResumeError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  if ((error as { code?: string }).code === RESUME_NOT_FOUND)
    return (
      <Centered icon={Link2Off} title="Link de checkout não encontrado" text="Este link de retomada não existe ou foi enviado para outra conta. Entre com a conta que recebeu o e-mail, ou comece a compra de novo.">
        <Button asChild variant="outline">
          <Link to="/">Voltar</Link>
        </Button>
      </Centered>
    );
  return (
    <div className="mx-auto max-w-lg px-4 py-20">
      <LoadError title="Não foi possível retomar a compra" onRetry={onRetry} />
    </div>
  );
}

function AlreadyEnrolled({ courseId }: { courseId: string }) {
  useEffect(() => {
    toast.info('Você já está matriculado neste curso');
  }, []);
  return <Navigate to={`/course/${courseId}`} replace />;
}

export function Centered({ icon: Icon, title, text, children }: { icon: typeof SearchX; title: string; text?: string; children?: ReactNode }) {
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center gap-3 px-4 py-20 text-center">
      <Icon className="size-10 text-muted-foreground" aria-hidden="true" />
      <h1 className="text-xl font-semibold">{title}</h1>
      {text && <p className="text-sm text-muted-foreground">{text}</p>}
      {children}
    </div>
  );
}

export function CheckoutSkeleton() {
  return (
    <div className="mx-auto grid w-full max-w-6xl gap-6 px-4 py-10 sm:px-6 lg:grid-cols-[minmax(0,1fr)_22rem]" aria-busy="true" aria-label="Carregando">
      <Skeleton className="h-[32rem] rounded-2xl" />
      <Skeleton className="h-80 rounded-2xl" />
    </div>
  );
}
