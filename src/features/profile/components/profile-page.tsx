import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ArrowLeft } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageSpinner } from '@/components/ui/spinner';
import { useSession } from '@/platform/session';
import { formatDate } from '@/utils/format';
import { useUpdateProfile } from '../api/hooks';
import { AvatarUpload } from './avatar-upload';
import { ProfileForm } from './profile-form';

/**
 * `children`: more cards below the form, composed by the route (e.g. two-factor sign-in for staff);
 * `notice`: above everything, under the title (e.g. the word of a subscription just made).
 */
export function ProfilePage({ children, notice }: { children?: ReactNode; notice?: ReactNode }) {
  const { user, profile, school } = useSession();
  const update = useUpdateProfile(user?.id ?? '');
  if (!user || !profile) return <PageSpinner />;
  const name = profile.name || user.email || '';
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-6 sm:px-6 sm:py-10">
      <Link to="/" className="mb-4 inline-flex items-center gap-1.5 rounded-md text-sm text-muted-foreground hover:text-foreground">
        <ArrowLeft className="size-4" aria-hidden="true" />
        Voltar
      </Link>
      <div className="mb-6">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Meu Perfil</h1>
        <p className="mt-1 text-sm text-muted-foreground">Gerencie sua foto e seus dados pessoais.</p>
      </div>
      {notice}
      <div className="grid grid-cols-1 gap-6 md:grid-cols-[16rem_1fr]">
        <Card className="h-fit">
          <CardContent className="flex flex-col items-center gap-4 pt-6">
            <AvatarUpload userId={user.id} name={name} avatarUrl={profile.avatar_url} />
            <div className="w-full border-t border-border pt-4 text-center">
              <p className="truncate font-semibold">{profile.name || 'Sem nome'}</p>
              <p className="truncate text-sm text-muted-foreground">{user.email}</p>
              {school && <p className="mt-2 truncate text-xs text-muted-foreground">{school.member_area_name || school.name}</p>}
              {profile.created_at && <p className="mt-1 text-xs text-muted-foreground">Membro desde {formatDate(profile.created_at)}</p>}
            </div>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Dados pessoais</CardTitle>
            <CardDescription>Nome Completo é obrigatório; os demais campos são opcionais.</CardDescription>
          </CardHeader>
          <CardContent>
            <ProfileForm profile={profile} email={user.email} pending={update.isPending} onSubmit={(values) => update.mutateAsync(values)} />
          </CardContent>
        </Card>
        {children && <div className="grid gap-6 md:col-start-2">{children}</div>}
      </div>
    </div>
  );
}
