// Who sees which of Configurações' cards (SPEC §6). The system key card is for the master user: a super
// admin, and when VITE_MASTER_USER_EMAIL is set, only the super admin with that e-mail; the staff's
// two-step requirement is the school admin's (or a super admin's).
import { useSession } from '@/platform/session';

const MASTER_EMAIL = (import.meta.env.VITE_MASTER_USER_EMAIL as string | undefined)?.trim().toLowerCase() || null;

export function useSettingsPowers() {
  const { roles, user } = useSession();
  const isSuperAdmin = roles.some((r) => r.role === 'SUPER_ADMIN');
  return {
    user,
    isSuperAdmin,
    isMaster: isSuperAdmin && (!MASTER_EMAIL || user?.email?.toLowerCase() === MASTER_EMAIL),
    isSchoolAdmin: (schoolId: string) =>
      isSuperAdmin || roles.some((r) => r.role === 'SCHOOL_ADMIN' && r.school_id === schoolId),
  };
}
