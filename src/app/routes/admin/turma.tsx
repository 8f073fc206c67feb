import { useParams } from 'react-router-dom';
import { TurmaPage } from '@/features/turmas/components/turma-page';

// A turma's page (issue 40): its students, their progress and Alunos em risco.
export default function AdminTurmaPage() {
  const { turmaId = '' } = useParams();
  return <TurmaPage key={turmaId} turmaId={turmaId} />;
}
