// The player's frame (16:9, a size container for the watermark) and what it shows instead of a video:
// loading, no video, a video that cannot load.
import { RefreshCw, VideoOff } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/utils/cn';

export function Frame({ children, className, kind, fullscreen }: { children: React.ReactNode; className?: string; kind?: string; fullscreen?: boolean }) {
  // A size container (the watermark's text follows its width). In full screen it stays 16:9, as large as
  // the screen allows above the controls: the watermark moves over the picture, not over black bars.
  // Inline styles, not utility classes: they stay in this chunk instead of the first page's stylesheet.
  return (
    <div
      data-testid="video-frame"
      data-video-kind={kind}
      className={cn('relative aspect-video w-full overflow-hidden bg-black', !fullscreen && 'sm:rounded-xl', className)}
      style={{ containerType: 'inline-size', ...(fullscreen && { width: 'min(100%, calc((100dvh - 4rem) * 16 / 9))', margin: 'auto' }) }}
    >
      {children}
    </div>
  );
}

export function LoadingVideo() {
  return (
    <div className="absolute inset-0 flex items-center justify-center">
      <Spinner className="text-white" label="Carregando vídeo..." />
    </div>
  );
}

export function NoVideo() {
  return (
    <Frame kind="none" className="bg-gradient-to-br from-slate-900 to-slate-800">
      <div className="absolute inset-0 flex flex-col items-center justify-center gap-2 text-slate-400">
        <VideoOff className="size-10" aria-hidden="true" />
        <p className="text-sm">Nenhum vídeo disponível para esta aula.</p>
      </div>
    </Frame>
  );
}

/** A video that cannot load (issue 46): said in the video's place, with a retry. */
export function VideoError({ onRetry }: { onRetry: () => void }) {
  return (
    <div role="alert" data-testid="video-error" className="absolute inset-0 flex flex-col items-center justify-center gap-3 px-6 text-center text-slate-300">
      <VideoOff className="size-8 text-slate-400" aria-hidden="true" />
      <p className="max-w-sm text-sm">Não foi possível carregar o vídeo. Verifique sua conexão e tente de novo.</p>
      <Button size="sm" variant="outline" onClick={onRetry}>
        <RefreshCw aria-hidden="true" /> Tentar novamente
      </Button>
    </div>
  );
}
