import { PagePlaceholder } from './placeholder';

// Placeholder: the course detail (issue: student learning pages) replaces this file.
export default function CoursePage() {
  return <PagePlaceholder title="Curso" />;
}
