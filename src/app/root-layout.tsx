import { Outlet } from 'react-router-dom';
import { useLcpShellRemoval } from '@/platform/first-visit';

/** Every page's parent: the HTML's early copy of the first page's largest image goes when it should. */
export function RootLayout() {
  useLcpShellRemoval();
  return <Outlet />;
}
