import { Navigate } from 'react-router-dom';
import { AuditPage } from '@/features/audit/components/audit-page';
import { useSchoolOptions } from '@/features/schools/api/hooks';
import { useSession } from '@/platform/session';
import { WithOwnSchool } from '@/app/own-school';

// Registro de atividades (issue 44): the super admin reads every school or picks one; a school's admin
// their school; other staff are sent to the dashboard (the database refuses them the log too).
export default function AdminAuditPage() {
  const { roles } = useSession();
  if (roles.some((r) => r.role === 'SUPER_ADMIN')) return <EverySchool />;
  if (!roles.some((r) => r.role === 'SCHOOL_ADMIN')) return <Navigate to="/admin" replace />;
  return <WithOwnSchool>{(school) => <AuditPage schoolId={school.id} />}</WithOwnSchool>;
}

function EverySchool() {
  const schools = useSchoolOptions();
  return <AuditPage schoolId={null} schools={schools.data ?? []} />;
}
