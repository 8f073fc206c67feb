import { Bell } from 'lucide-react';
import { Button } from '@/components/ui/button';

/** Placeholder of the member header's bell: the announcements feature replaces this component. */
export function HeaderBell() {
  return (
    <Button variant="ghost" size="icon" aria-label="Notificações" className="text-muted-foreground">
      <Bell className="size-5" aria-hidden="true" />
    </Button>
  );
}
