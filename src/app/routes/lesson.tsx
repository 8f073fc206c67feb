import { PagePlaceholder } from './placeholder';

// Placeholder: the lesson player (issue: student learning pages) replaces this file.
export default function LessonPage() {
  return <PagePlaceholder title="Aula" />;
}
