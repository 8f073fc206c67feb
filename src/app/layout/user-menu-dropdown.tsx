// The account menu's Radix dropdown (./user-menu.tsx loads it once the page has settled).
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Handshake, LayoutDashboard, LogOut, User } from 'lucide-react';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { useIsApprovedAffiliate } from '@/features/affiliates/api/hooks';
import { useSession } from '@/platform/session';
import type { DeferredTriggerStart } from '@/platform/deferred-module';
import { useSignOutAndLeave } from './use-sign-out';

export interface UserMenuDropdownProps extends DeferredTriggerStart {
  trigger: ReactNode;
  triggerClassName: string;
}

export function UserMenuDropdown({ trigger, triggerClassName, defaultOpen, autoFocus }: UserMenuDropdownProps) {
  const { user, isAdmin } = useSession();
  const leave = useSignOutAndLeave();
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger className={triggerClassName} autoFocus={autoFocus}>
        {trigger}
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-56">
        <DropdownMenuLabel>
          Minha Conta
          <span className="mt-0.5 block truncate text-xs font-normal text-muted-foreground">{user?.email}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/profile">
            <User aria-hidden="true" />
            Perfil
          </Link>
        </DropdownMenuItem>
        <AffiliatePanelItem userId={user?.id ?? ''} />
        {isAdmin && (
          <DropdownMenuItem asChild>
            <Link to="/admin">
              <LayoutDashboard aria-hidden="true" />
              Admin
            </Link>
          </DropdownMenuItem>
        )}
        <DropdownMenuSeparator />
        <DropdownMenuItem variant="destructive" onSelect={() => void leave()}>
          <LogOut aria-hidden="true" />
          Sair
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** "Painel do afiliado", for an approved affiliate. Inside the menu's content, which mounts only while the
 * menu is open: the question is asked when someone opens their menu, not on every page a student visits. */
function AffiliatePanelItem({ userId }: { userId: string }) {
  const affiliate = useIsApprovedAffiliate(userId);
  if (!affiliate.data) return null;
  return (
    <DropdownMenuItem asChild>
      <Link to="/afiliado">
        <Handshake aria-hidden="true" />
        Painel do afiliado
      </Link>
    </DropdownMenuItem>
  );
}
