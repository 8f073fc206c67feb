import { CouponsPage } from '@/features/coupons/components/coupons-page';
import { WithOwnSchoolCourses } from '@/app/own-school';

// Cupons (issue 24): the coupons feature, with the school's courses for a coupon's course list.
export default function AdminCouponsPage() {
  return (
    <WithOwnSchoolCourses>
      {(schoolId, courses) => <CouponsPage schoolId={schoolId} courses={courses} />}
    </WithOwnSchoolCourses>
  );
}
