import { useState } from 'react';
import { Megaphone, Plus } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { AdminPage, PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDate } from '@/utils/format';
import { ListSearch } from '@/components/ui/list-search';
import { LoadError } from '@/components/ui/load-error';
import { Pagination } from '@/components/ui/pagination';
import { DeleteRowButton, EditRowButton } from '@/components/ui/row-actions';
import { useListParams } from '@/utils/list-params';
import { useDeleteAnnouncement, useSchoolAnnouncements } from '../../api/admin-hooks';
import { ANNOUNCEMENTS_PAGE_SIZE, type AdminAnnouncement } from '../../api/admin-queries';
import { AnnouncementDialog } from './announcement-form-dialog';
import type { CourseOption } from '@/concepts/course-filter';

export function AnnouncementsPage({ schoolId, userId, courses }: { schoolId: string; userId: string; courses: CourseOption[] }) {
  const { page, query, setPage, setQuery, filter, setFilters } = useListParams();
  // ?turma=…&curso=… ("Comunicado para a turma" on a turma's page) opens a new one for that turma.
  const forTurma = filter('turma') && filter('curso') ? { turmaId: filter('turma'), courseId: filter('curso') } : undefined;
  const list = useSchoolAnnouncements(schoolId, query, page);
  const remove = useDeleteAnnouncement();
  const [editing, setEditing] = useState<{ item: AdminAnnouncement | null } | null>(() => (forTurma ? { item: null } : null));
  const [deleting, setDeleting] = useState<AdminAnnouncement | null>(null);
  const items = list.data?.rows ?? [];
  return (
    <AdminPage>
      <PageHeader
        title="Anúncios"
        description="Avisos que aparecem para os alunos ao entrar (um por dia) e no sino"
        actions={
          <Button onClick={() => setEditing({ item: null })}>
            <Plus aria-hidden="true" /> Novo Anúncio
          </Button>
        }
      />
      <ListSearch
        label="Buscar anúncio por título"
        placeholder="Buscar por título..."
        value={query}
        onSearch={setQuery}
      />
      {list.isPending ? (
        <Skeleton className="h-40 rounded-xl" />
      ) : list.isError ? (
        <LoadError title="Não foi possível carregar os anúncios" onRetry={list.refetch} />
      ) : items.length === 0 && query ? (
        <EmptyState
          icon={Megaphone}
          title="Nenhum anúncio encontrado"
          description={`Nenhum anúncio com "${query}" no título.`}
        />
      ) : items.length === 0 ? (
        <EmptyState
          icon={Megaphone}
          title="Nenhum anúncio criado ainda"
          description="Crie um anúncio para avisar seus alunos."
        />
      ) : (
        <ul className="grid gap-3" aria-label="Anúncios">
          {items.map((a) => (
            <li
              key={a.id}
              className="flex min-w-0 flex-col gap-3 rounded-xl border border-border bg-white p-4 shadow-xs sm:flex-row sm:items-center"
            >
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-center gap-2">
                  <h2 className="min-w-0 font-semibold break-words">{a.title}</h2>
                  {!a.is_active && <Badge variant="secondary">Inativo</Badge>}
                </div>
                <p className="mt-1 text-xs text-muted-foreground">
                  Prioridade {a.priority} · {formatDate(a.created_at)}
                </p>
              </div>
              <div className="flex gap-2">
                <EditRowButton name={a.title} onClick={() => setEditing({ item: a })} variant="outline" />
                <DeleteRowButton name={a.title} onClick={() => setDeleting(a)} />
              </div>
            </li>
          ))}
        </ul>
      )}
      {list.data && (
        <Pagination
          page={page}
          pageSize={ANNOUNCEMENTS_PAGE_SIZE}
          total={list.data.total}
          onPageChange={setPage}
          label="Páginas de anúncios"
          noun={['anúncio', 'anúncios']}
        />
      )}
      {editing && (
        <AnnouncementDialog
          item={editing.item}
          schoolId={schoolId}
          userId={userId}
          courses={courses}
          turma={editing.item ? undefined : forTurma}
          onClose={() => {
            setEditing(null);
            if (forTurma) setFilters({ turma: '', curso: '' });
          }}
        />
      )}
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Excluir anúncio?"
        description={`"${deleting?.title ?? ''}" deixará de aparecer para os alunos. Esta ação não pode ser desfeita.`}
        confirmLabel="Excluir"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting, { onSettled: () => setDeleting(null) })}
      />
    </AdminPage>
  );
}
