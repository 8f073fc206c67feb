import { useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { removeLcpShell } from '@/platform/first-visit/lcp-hint';
import { whenPageSettled } from '@/platform/first-visit/page-settled';

/**
 * The HTML's early copy of the first page's largest image (src/platform/first-visit/lcp-hint.ts) goes when that page's
 * own image has loaded (StorageImage); failing that, once the page has settled, or as soon as another
 * page opens: behind a page that does not cover it, it would show through.
 */
export function RemoveLcpShell() {
  const { pathname } = useLocation();
  const [first] = useState(pathname);
  useEffect(() => whenPageSettled(removeLcpShell), []);
  useEffect(() => {
    if (pathname !== first) removeLcpShell();
  }, [pathname, first]);
  return null;
}
