// The lesson's 'Conteúdo' and 'Materiais' tabs.
import { useEffect } from 'react';
import { ExternalLink, FileText, Link2, Sheet as SheetIcon, Presentation, File, Video } from 'lucide-react';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useOpenMaterial } from '../api/hooks';
import type { LessonMaterial, MaterialType } from '../api/queries';
import { useDeferredModule } from '@/platform/deferred-module';

// Its own chunk (marked, DOMPurify, ~25 KB): under a video it loads once the page has settled (the
// video's frame painted first, issue 21); a lesson without one asks for it at once.
const loadContent = () => import('./lesson-content');

function WrittenContent({ content, afterVideo }: { content: string; afterVideo: boolean }) {
  const { module, request } = useDeferredModule(loadContent);
  useEffect(() => {
    if (!afterVideo) request();
  }, [afterVideo, request]);
  if (module) return <module.default content={content} />;
  return (
    <div className="space-y-2" aria-busy="true">
      <Skeleton className="h-4 w-full bg-white/10" />
      <Skeleton className="h-4 w-5/6 bg-white/10" />
      <Skeleton className="h-4 w-2/3 bg-white/10" />
    </div>
  );
}

const MATERIAL_ICON: Record<MaterialType, typeof FileText> = {
  PDF: FileText,
  SLIDE: Presentation,
  SHEET: SheetIcon,
  LINK: Link2,
  OTHER: File,
  VIDEO: Video,
};

function MaterialItem({ material }: { material: LessonMaterial }) {
  const open = useOpenMaterial();
  const Icon = MATERIAL_ICON[material.type] ?? File;
  // A PDF is saved stamped with the student's name (issue 39), not opened in a tab.
  const isPdf = material.type === 'PDF';
  const stamping = isPdf && open.isPending;
  const inner = (
    <>
      <span aria-hidden="true" className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/15 text-primary-on-dark">
        <Icon className="size-5" />
      </span>
      <span className="min-w-0 flex-1">
        <span className="block truncate text-sm font-medium text-slate-100">{material.title}</span>
        <span className="text-xs text-slate-400">{stamping ? 'Preparando o PDF com o seu nome...' : material.type}</span>
      </span>
      <ExternalLink className="size-4 shrink-0 text-slate-400" aria-hidden="true" />
    </>
  );
  const cls = 'flex w-full cursor-pointer items-center gap-3 rounded-xl border border-white/10 bg-white/5 p-3 text-left transition-colors hover:bg-white/10 disabled:opacity-60';
  if (material.url) {
    return (
      <a href={material.url} target="_blank" rel="noopener noreferrer" className={cls} data-testid="material">
        {inner}
      </a>
    );
  }
  return (
    <button
      type="button"
      className={cls}
      disabled={open.isPending}
      aria-busy={open.isPending || undefined}
      data-testid="material"
      onClick={() => {
        // Any other file: open the tab during the click (popup blockers), then point it at the signed URL.
        const tab = isPdf ? null : window.open('about:blank', '_blank');
        if (tab) tab.opener = null;
        open.mutate({ material: { file_path: material.file_path!, type: material.type }, tab });
      }}
    >
      {inner}
    </button>
  );
}

/** `afterVideo`: the lesson's video comes first on the page (its written content can wait for it). */
export function LessonTabs({ content, materials, afterVideo }: { content: string | null; materials: LessonMaterial[]; afterVideo: boolean }) {
  const tab = 'text-slate-400 hover:text-white data-[state=active]:bg-slate-700! data-[state=active]:text-white!';
  return (
    <Tabs defaultValue="conteudo">
      <TabsList className="w-full bg-white/5 sm:w-auto">
        <TabsTrigger value="conteudo" className={tab}>
          Conteúdo
        </TabsTrigger>
        <TabsTrigger value="materiais" className={tab}>
          Materiais{materials.length > 0 ? ` (${materials.length})` : ''}
        </TabsTrigger>
      </TabsList>
      <TabsContent value="conteudo">
        {content?.trim() ? (
          <WrittenContent content={content} afterVideo={afterVideo} />
        ) : (
          <p className="text-sm text-slate-400">Esta aula não tem conteúdo escrito.</p>
        )}
      </TabsContent>
      <TabsContent value="materiais">
        {materials.length === 0 ? (
          <p className="text-sm text-slate-400">Nenhum material para esta aula.</p>
        ) : (
          <ul className="grid gap-2 sm:grid-cols-2">
            {materials.map((m) => (
              <li key={m.id}>
                <MaterialItem material={m} />
              </li>
            ))}
          </ul>
        )}
      </TabsContent>
    </Tabs>
  );
}
