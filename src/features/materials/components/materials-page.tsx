import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Copy, ExternalLink, FileText, Plus } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { AdminPage, PageHeader } from '@/components/ui/page-header';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { materialLink, useDeleteMaterial, useOpenMaterial, useSaveMaterial, useSchoolMaterials } from '../api/hooks';
import { materialSchema, type MaterialFormValues } from '../schemas';
import { MATERIALS_PAGE_SIZE, type AdminMaterial } from '../api/queries';
import { ListSearch } from '@/components/ui/list-search';
import { LoadError } from '@/components/ui/load-error';
import { Pagination } from '@/components/ui/pagination';
import { DeleteRowButton, EditRowButton } from '@/components/ui/row-actions';
import { useListParams } from '@/utils/list-params';
import { copyText } from '@/platform/clipboard';
import { CourseOptions, type CourseOption } from '@/concepts/course-filter';

const TYPES = ['PDF', 'VIDEO', 'LINK', 'OTHER'] as const;
const TYPE_LABEL: Record<string, string> = {
  PDF: 'PDF',
  VIDEO: 'Vídeo',
  LINK: 'Link',
  OTHER: 'Outro',
  SLIDE: 'Slides',
  SHEET: 'Planilha',
};

export function MaterialsPage({ schoolId, courses }: { schoolId: string; courses: CourseOption[] }) {
  const { page, query, setPage, setQuery } = useListParams();
  const materials = useSchoolMaterials(schoolId, query, page);
  const remove = useDeleteMaterial();
  const [editing, setEditing] = useState<{ material: AdminMaterial | null } | null>(null);
  const [deleting, setDeleting] = useState<AdminMaterial | null>(null);
  const list = materials.data?.rows ?? [];

  const open = useOpenMaterial();

  return (
    <AdminPage>
      <PageHeader
        title="Materiais"
        description="Arquivos e links de apoio dos cursos"
        actions={
          <Button onClick={() => setEditing({ material: null })} disabled={courses.length === 0}>
            <Plus aria-hidden="true" /> Novo Material
          </Button>
        }
      />
      <ListSearch
        label="Buscar material por título"
        placeholder="Buscar por título..."
        value={query}
        onSearch={setQuery}
      />
      {materials.isPending ? (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-40 rounded-xl" />
          ))}
        </div>
      ) : materials.isError ? (
        <LoadError title="Não foi possível carregar os materiais" onRetry={materials.refetch} />
      ) : list.length === 0 && query ? (
        <EmptyState
          icon={FileText}
          title="Nenhum material encontrado"
          description={`Nenhum material com "${query}" no título.`}
        />
      ) : list.length === 0 ? (
        <EmptyState
          icon={FileText}
          title="Nenhum material cadastrado"
          description={
            courses.length
              ? 'Adicione links e arquivos de apoio aos cursos.'
              : 'Crie um curso antes de adicionar materiais.'
          }
        />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Materiais">
          {list.map((m) => (
            <li
              key={m.id}
              className="grid min-w-0 grid-cols-1 content-start gap-3 rounded-xl border border-border bg-white p-4 shadow-xs"
            >
              <div className="flex items-start justify-between gap-2">
                <h2 className="min-w-0 font-semibold break-words">{m.title}</h2>
                <Badge variant="secondary">{TYPE_LABEL[m.type] ?? m.type}</Badge>
              </div>
              <p className="truncate text-sm text-muted-foreground">{m.course?.title ?? 'Curso'}</p>
              <p className="truncate text-xs text-muted-foreground">
                {m.url ?? `Arquivo: ${m.file_path?.split('/').pop() ?? ''}`}
              </p>
              <div className="flex flex-wrap gap-2">
                <Button variant="outline" size="sm" onClick={() => open.mutate(m)} aria-label={`Abrir ${m.title}`}>
                  <ExternalLink aria-hidden="true" /> Abrir
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => void copyText(materialLink(m), 'Link copiado!')}
                  aria-label={`Copiar link de ${m.title}`}
                >
                  <Copy aria-hidden="true" /> Copiar link
                </Button>
                <EditRowButton name={m.title} onClick={() => setEditing({ material: m })} variant="ghost" />
                <DeleteRowButton name={m.title} onClick={() => setDeleting(m)} />
              </div>
            </li>
          ))}
        </ul>
      )}
      {materials.data && (
        <Pagination
          page={page}
          pageSize={MATERIALS_PAGE_SIZE}
          total={materials.data.total}
          onPageChange={setPage}
          label="Páginas de materiais"
          noun={['material', 'materiais']}
        />
      )}
      {editing && <MaterialDialog material={editing.material} courses={courses} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Excluir material?"
        description={`"${deleting?.title ?? ''}" deixará de aparecer para os alunos. Esta ação não pode ser desfeita.`}
        confirmLabel="Excluir"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting, { onSettled: () => setDeleting(null) })}
      />
    </AdminPage>
  );
}

function MaterialDialog({
  material,
  courses,
  onClose,
}: {
  material: AdminMaterial | null;
  courses: CourseOption[];
  onClose: () => void;
}) {
  const save = useSaveMaterial();
  const isFile = !!material?.file_path;
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<MaterialFormValues>({
    resolver: zodResolver(materialSchema(isFile)),
    defaultValues: {
      title: material?.title ?? '',
      url: material?.url ?? '',
      type: material?.type ?? 'LINK',
      course_id: material?.course_id ?? courses[0]?.id ?? '',
    },
  });
  const title = material ? 'Editar Material' : 'Novo Material';
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>
            {isFile ? 'Arquivo enviado numa aula: altere o título, o tipo ou o curso.' : 'Um link de apoio do curso.'}
          </DialogDescription>
        </DialogHeader>
        <form
          noValidate
          aria-label={title}
          className="grid gap-4"
          onSubmit={handleSubmit((values) => save.mutate({ id: material?.id, values, isFile }, { onSuccess: onClose }))}
        >
          <FormField label="Título" error={errors.title?.message} required>
            <Input {...register('title')} />
          </FormField>
          <FormField
            label="URL"
            error={errors.url?.message}
            required={!isFile}
            hint={isFile ? 'O arquivo fica guardado na plataforma.' : undefined}
          >
            <Input type="url" inputMode="url" placeholder="https://..." disabled={isFile} {...register('url')} />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label="Tipo" error={errors.type?.message}>
              <Select {...register('type')}>
                {(isFile && material ? Array.from(new Set([...TYPES, material.type])) : TYPES).map((t) => (
                  <option key={t} value={t}>
                    {TYPE_LABEL[t]}
                  </option>
                ))}
              </Select>
            </FormField>
            <FormField label="Curso" error={errors.course_id?.message} required>
              <Select {...register('course_id')} disabled={!!material?.lesson_id}>
                <CourseOptions courses={courses} />
              </Select>
            </FormField>
          </div>
          <FormDialogFooter onCancel={onClose} pending={save.isPending} submitLabel="Salvar" />
        </form>
      </DialogContent>
    </Dialog>
  );
}
