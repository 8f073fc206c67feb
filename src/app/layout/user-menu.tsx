// The member header's account menu (Minha Conta, Perfil, Admin for admins, Sair). Its Radix dropdown
// is a chunk of its own (issue 21: ~25 KB gzip with the popper and focus machinery the header's bell
// shares), loaded once the page has settled or when the pointer or focus reaches the button; until
// then the same-looking button opens the menu as soon as that code arrives.
import { Avatar } from '@/components/ui/avatar';
import { useSession } from '@/platform/session';
import { useDeferredTrigger } from '@/platform/deferred-module';

const loadDropdown = () => import('./user-menu-dropdown');
const TRIGGER_CLASS = 'cursor-pointer rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary';

export function UserMenu() {
  const { profile, user } = useSession();
  const dropdown = useDeferredTrigger(loadDropdown);
  const name = profile?.name || user?.email || '';
  const trigger = (
    <>
      {/* Named by its text, not aria-label: the visible initials must not contradict the name. */}
      <span className="sr-only">Menu da conta</span>
      <Avatar name={name} src={profile?.avatar_url} decorative />
    </>
  );
  if (dropdown.module) {
    return <dropdown.module.UserMenuDropdown trigger={trigger} triggerClassName={TRIGGER_CLASS} {...dropdown.initial} />;
  }
  return (
    <button type="button" aria-haspopup="menu" className={TRIGGER_CLASS} {...dropdown.placeholderProps}>
      {trigger}
    </button>
  );
}
