import { useState } from 'react';
import { GraduationCap } from 'lucide-react';
import { StorageImage } from '@/components/ui/storage-image';
import { cn } from '@/utils/cn';
import type { SchoolLogin } from '../api/school-login';

/** The school's login banner at its focal position, or a gradient with the member-area and school names. */
export function LoginBanner({ school, className }: { school: SchoolLogin | null; className?: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  const url = school?.login_banner_url;
  const showImage = !!url && failed !== url;
  const title = school?.member_area_name || school?.name || 'Área de Membros';
  return (
    <div className={cn('relative overflow-hidden bg-gradient-to-br from-primary to-secondary', className)} data-testid="login-banner">
      {showImage ? (
        <>
          <StorageImage
            src={url}
            alt={`Banner de ${school?.name ?? 'login'}`}
            className="absolute inset-0 size-full object-cover"
            // The largest paint of the login page: fetch it first; 1920×1080 is the recommended size.
            // It covers a 12-15rem band on a phone, half the screen's width and its full height from lg.
            priority
            sizes="(min-width: 1024px) max(50vw, 178vh), max(100vw, 27rem)"
            width={1920}
            height={1080}
            style={{ objectPosition: school?.login_banner_position || '50% 50%' }}
            onError={() => setFailed(url)}
          />
          <div className="absolute inset-0 bg-gradient-to-t from-black/60 via-black/10 to-transparent" aria-hidden="true" />
          {school && (
            <div className="absolute inset-x-0 bottom-0 px-6 pt-6 pb-14 text-white lg:p-10">
              <p className="text-lg font-semibold drop-shadow lg:text-2xl">{title}</p>
              <p className="text-sm text-white/85 drop-shadow">{school.name}</p>
            </div>
          )}
        </>
      ) : (
        <div className="relative flex h-full flex-col justify-end gap-1 px-6 pt-6 pb-14 text-white lg:justify-center lg:gap-3 lg:p-12">
          <div aria-hidden="true" className="absolute -top-24 -right-24 size-72 rounded-full bg-white/10 blur-2xl" />
          <div aria-hidden="true" className="absolute -bottom-32 -left-16 size-80 rounded-full bg-black/10 blur-2xl" />
          <span className="relative hidden size-14 items-center justify-center rounded-2xl bg-white/15 backdrop-blur lg:flex" aria-hidden="true">
            <GraduationCap className="size-7" />
          </span>
          <p className="relative text-2xl font-bold tracking-tight lg:text-4xl">{title}</p>
          {school && <p className="relative text-base text-white/85 lg:text-lg">{school.name}</p>}
          {!school && <p className="relative text-base text-white/85 lg:text-lg">Sua plataforma de cursos online</p>}
        </div>
      )}
    </div>
  );
}
