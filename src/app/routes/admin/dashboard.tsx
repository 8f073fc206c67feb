import { Dashboard } from '@/features/dashboard/components/dashboard';
import { ReportSummaryCards } from '@/features/reports/components/report-summary-cards';
import { SchoolCourseFilter } from '@/app/own-school';

export default function AdminDashboardPage() {
  return <Dashboard renderCourseFilter={(p) => <SchoolCourseFilter {...p} />} renderCourseSummary={(p) => <ReportSummaryCards {...p} />} />;
}
