import { PagePlaceholder } from './placeholder';

// Placeholder: the student home (issue: student learning pages) replaces this file.
export default function HomePage() {
  return <PagePlaceholder title="Bem-vindo de volta" />;
}
