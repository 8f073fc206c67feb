import { PagePlaceholder } from '../placeholder';

// Placeholder: admin announcements issue.
export default function AdminAnnouncementsPage() {
  return <PagePlaceholder title="Anúncios" />;
}
