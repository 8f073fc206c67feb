import { useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { removeLcpShell } from './lcp-hint';
import { whenPageSettled } from './page-settled';

/**
 * The HTML's early copy of the first page's largest image (./lcp-hint.ts) goes when that page's own
 * image has loaded (StorageImage); failing that, once the page has settled, or as soon as another
 * page opens: behind a page that does not cover it, it would show through. Used once, by the router's
 * root route.
 */
export function useLcpShellRemoval(): void {
  const { pathname } = useLocation();
  const [first] = useState(pathname);
  useEffect(() => whenPageSettled(removeLcpShell), []);
  useEffect(() => {
    if (pathname !== first) removeLcpShell();
  }, [pathname, first]);
}
