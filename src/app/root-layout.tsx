import { useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { removeLcpShell, whenPageSettled } from '@/platform/first-visit';

/**
 * Every page's parent. The HTML's early copy of the first page's largest image (the first visit's
 * lcp-hint) goes when that page's own image has loaded (StorageImage); failing that, once the page has
 * settled, or as soon as another page opens: behind a page that does not cover it, it would show
 * through. (Here, not in the first-visit module: the module's door is on the first route beside the
 * 'ui' chunk, and a hook of the router there would carry the router into that chunk.)
 */
export function RootLayout() {
  const { pathname } = useLocation();
  const [first] = useState(pathname);
  useEffect(() => whenPageSettled(removeLcpShell), []);
  useEffect(() => {
    if (pathname !== first) removeLcpShell();
  }, [pathname, first]);
  return <Outlet />;
}
