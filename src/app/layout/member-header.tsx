import { Link, useMatch } from 'react-router-dom';
import { Shield } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { ProgressRing } from '@/components/ui/progress-ring';
import { StorageImage } from '@/components/ui/storage-image';
import { useSession } from '@/platform/session';
import { HeaderBell } from './header-bell';
import { useHeaderProgress } from './header-progress-context';
import { UserMenu } from './user-menu';

/** The 2rem logo, at 2x and 4x. */
const LOGO_WIDTHS = [64, 128];

export function MemberHeader() {
  const { school, isAdmin } = useSession();
  const onCourse = useMatch('/course/:courseId');
  const progress = useHeaderProgress();
  const title = school?.member_area_name || school?.name || 'Área de Membros';
  return (
    <header className="sticky top-0 z-40 border-b border-border bg-white/90 backdrop-blur supports-[backdrop-filter]:bg-white/75">
      <div className="mx-auto flex h-16 w-full max-w-7xl items-center gap-3 px-4 sm:px-6">
        <Link to="/" className="flex min-w-0 items-center gap-2 rounded-md font-semibold text-foreground">
          {school?.logo_url ? (
            <StorageImage src={school.logo_url} sizes="32px" widths={LOGO_WIDTHS} loading="eager" className="size-8 shrink-0 rounded-md object-contain" />
          ) : (
            <span aria-hidden="true" className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-gradient-to-br from-primary to-secondary text-sm font-bold text-white">
              {title.charAt(0).toUpperCase()}
            </span>
          )}
          <span className="truncate text-base sm:text-lg">{title}</span>
        </Link>
        <div className="ml-auto flex shrink-0 items-center gap-1 sm:gap-2">
          {onCourse && progress !== null && <ProgressRing value={progress} size={40} className="mr-1" />}
          {isAdmin && (
            <Button asChild variant="outline" size="sm" className="max-sm:size-10 max-sm:border-0 max-sm:px-0 max-sm:shadow-none">
              <Link to="/admin">
                <Shield aria-hidden="true" />
                <span className="max-sm:sr-only">Admin</span>
              </Link>
            </Button>
          )}
          <HeaderBell />
          <UserMenu />
        </div>
      </div>
    </header>
  );
}
