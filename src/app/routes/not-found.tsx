// The catch-all. It also serves an affiliate's link, /<escola>/c/<curso>?afiliado=<código> (issue 43): one
// more route in the router's table would cost the first route's download, which is at its budget.
import { useEffect } from 'react';
import { matchPath, useLocation } from 'react-router-dom';
import { AffiliateLinkLanding } from '@/features/affiliates/components/affiliate-referral';

export default function NotFound() {
  const { pathname } = useLocation();
  const affiliateLink = matchPath('/:schoolSlug/c/:courseSlug', pathname)?.params;
  if (affiliateLink?.schoolSlug && affiliateLink.courseSlug) {
    return <AffiliateLinkLanding schoolSlug={affiliateLink.schoolSlug} courseSlug={affiliateLink.courseSlug} />;
  }
  return <Missing pathname={pathname} />;
}

function Missing({ pathname }: { pathname: string }) {
  useEffect(() => {
    console.error('404 Error: User attempted to access non-existent route:', pathname);
  }, [pathname]);
  return (
    <main className="flex min-h-screen items-center justify-center bg-muted p-6">
      <div className="text-center">
        <h1 className="mb-4 text-4xl font-bold">404</h1>
        <p className="mb-4 text-xl text-muted-foreground">Oops! Page not found</p>
        <a href="/" className="text-primary underline underline-offset-4 hover:text-primary/80">
          Return to Home
        </a>
      </div>
    </main>
  );
}
