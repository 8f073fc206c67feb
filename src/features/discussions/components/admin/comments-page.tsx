// "Comentários" (issue 26): every comment of the school, newest first, with its course, lesson, author
// and (for a reply) the question it answers; the filter, course, search and page in the URL
// (?filtro=sem-resposta&curso=…&turma=…&q=…&pagina=2; Turma for a course with turmas, issue 40) and the
// filter's total. Each comment's actions are the lesson page's (Responder, Marcar como resposta, Aprovar,
// Ocultar, Mostrar, Excluir) plus "Abrir aula".
import { useId } from 'react';
import { MessageSquare } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { CourseFilter, type CourseOption } from '@/concepts/course-filter';
import { TurmaFilter } from '@/concepts/turma-filter';
import { useChosenTurma } from '@/concepts/turmas';
import { ListSearch } from '@/components/ui/list-search';
import { LoadError } from '@/components/ui/load-error';
import { AdminPage, PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { Skeleton } from '@/components/ui/skeleton';
import { useListParams } from '@/utils/list-params';
import { cn } from '@/utils/cn';
import { useAdminCommentCounts, useAdminComments } from '../../api/admin-hooks';
import {
  ADMIN_COMMENTS_PAGE_SIZE,
  type AdminCommentCounts,
  type AdminCommentFilter,
  type AdminCommentFilters,
} from '../../api/admin-queries';
import { AdminCommentItem } from './admin-comment-item';

/** The URL's names: ?filtro=sem-resposta|pendentes|ocultos (none: Todos), ?curso=<id>. */
export const FILTER_PARAM = 'filtro';
export const COURSE_PARAM = 'curso';
export const TURMA_PARAM = 'turma';

const FILTERS: { value: AdminCommentFilter; slug: string; label: string; count?: keyof AdminCommentCounts }[] = [
  { value: 'all', slug: '', label: 'Todos' },
  { value: 'unanswered', slug: 'sem-resposta', label: 'Sem resposta', count: 'unanswered' },
  { value: 'pending', slug: 'pendentes', label: 'Pendentes', count: 'pending' },
  { value: 'hidden', slug: 'ocultos', label: 'Ocultos', count: 'hidden' },
];

const EMPTY: Record<AdminCommentFilter, { title: string; description: string }> = {
  all: {
    title: 'Nenhum comentário ainda',
    description: 'As perguntas e respostas dos alunos nas aulas aparecem aqui.',
  },
  unanswered: {
    title: 'Nenhuma pergunta sem resposta',
    description: 'Todas as perguntas dos alunos já têm uma resposta da equipe.',
  },
  pending: {
    title: 'Nenhum comentário aguardando aprovação',
    description: 'Com a aprovação ligada em Configurações, os comentários novos dos alunos esperam aqui.',
  },
  hidden: {
    title: 'Nenhum comentário oculto',
    description: 'Os comentários que a equipe ocultar dos alunos aparecem aqui.',
  },
};

export function CommentsPage({ schoolId, courses }: { schoolId: string; courses: CourseOption[] }) {
  const { page, query, setPage, setQuery, filter, setFilter, setFilters } = useListParams();
  const id = useId();
  const current = FILTERS.find((f) => f.slug && f.slug === filter(FILTER_PARAM)) ?? FILTERS[0]!;
  const courseId = courses.some((c) => c.id === filter(COURSE_PARAM)) ? filter(COURSE_PARAM) : '';
  // A turma of the chosen course ("Discussões por turma", issue 40).
  const turmaId = useChosenTurma(courseId, filter(TURMA_PARAM));
  const filters: AdminCommentFilters = { filter: current.value, courseId, turmaId, search: query };
  const comments = useAdminComments(schoolId, filters, page);
  const counts = useAdminCommentCounts(schoolId);
  const narrowed = !!(courseId || turmaId || query);
  const rows = comments.data?.rows ?? [];

  return (
    <AdminPage>
      <PageHeader title="Comentários" description="Perguntas e respostas dos alunos nas aulas da escola" />
      <div className="grid gap-3">
        <div role="group" aria-label="Mostrar" className="flex flex-wrap gap-2">
          {FILTERS.map((f) => {
            const n = f.count && counts.data ? counts.data[f.count] : null;
            const active = f.value === current.value;
            return (
              <Button
                key={f.value}
                variant={active ? 'default' : 'outline'}
                size="sm"
                aria-pressed={active}
                aria-label={n ? `${f.label} (${n.toLocaleString('pt-BR')})` : undefined}
                onClick={() => setFilter(FILTER_PARAM, f.slug)}
              >
                {f.label}
                {!!n && (
                  <span
                    aria-hidden="true"
                    className={cn('rounded-full px-1.5 text-xs tabular-nums', active ? 'bg-white/20' : 'bg-muted')}
                  >
                    {n.toLocaleString('pt-BR')}
                  </span>
                )}
              </Button>
            );
          })}
        </div>
        <div className="grid gap-3 sm:grid-cols-[minmax(0,16rem)_minmax(0,1fr)] sm:items-end">
          <CourseFilter
            id={`${id}-course`}
            value={courseId}
            courses={courses}
            onChange={(v) => setFilters({ [COURSE_PARAM]: v, [TURMA_PARAM]: '' })}
          />
          <TurmaFilter id={`${id}-turma`} courseId={courseId} value={turmaId} onChange={(v) => setFilter(TURMA_PARAM, v)} />
          <ListSearch
            label="Buscar comentário por texto ou autor"
            placeholder="Buscar por texto ou autor..."
            value={query}
            onSearch={setQuery}
          />
        </div>
      </div>
      {comments.isPending ? (
        <div className="grid gap-3">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="h-36 rounded-xl" />
          ))}
        </div>
      ) : comments.isError ? (
        <LoadError title="Não foi possível carregar os comentários" onRetry={comments.refetch} />
      ) : rows.length === 0 ? (
        <EmptyState
          icon={MessageSquare}
          title={narrowed ? 'Nenhum comentário encontrado' : EMPTY[current.value].title}
          description={
            narrowed
              ? query
                ? `Nada encontrado para "${query}".`
                : 'Mude os filtros para ver outros comentários.'
              : EMPTY[current.value].description
          }
        />
      ) : (
        <ul className="grid gap-3" aria-label="Comentários" aria-busy={comments.isFetching}>
          {rows.map((c) => (
            <AdminCommentItem key={c.id} comment={c} />
          ))}
        </ul>
      )}
      {comments.data && (
        <Pagination
          page={page}
          pageSize={ADMIN_COMMENTS_PAGE_SIZE}
          total={comments.data.total}
          onPageChange={setPage}
          label="Páginas dos comentários"
          noun={['comentário', 'comentários']}
        />
      )}
    </AdminPage>
  );
}
