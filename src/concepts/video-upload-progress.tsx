import { X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { ProgressBar } from '@/components/ui/progress-bar';
import { formatFileSize } from '@/platform/upload';
import type { UploadProgress } from '@/platform/resumable-upload';
import { formatTimeLeft } from '@/concepts/video-source';

/** Percent, MB sent and time left of a resumable upload, with a cancel button. */
export function VideoUploadProgress({
  fileName,
  progress,
  waiting,
  onCancel,
}: {
  fileName: string;
  progress: UploadProgress | null;
  waiting: boolean;
  onCancel: () => void;
}) {
  const percent = progress?.percent ?? 0;
  const left = formatTimeLeft(progress?.secondsLeft ?? null);
  return (
    <div className="grid gap-2 rounded-lg border border-border bg-muted/50 p-3" role="status" aria-live="polite">
      <div className="flex items-center justify-between gap-2 text-sm">
        <span className="min-w-0 truncate font-medium">Enviando {fileName}</span>
        <span className="tabular-nums">{percent}%</span>
      </div>
      <ProgressBar value={percent} label={`Envio do vídeo: ${percent}%`} />
      <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-muted-foreground">
        <span className="tabular-nums">
          {progress
            ? `${formatFileSize(progress.bytesSent)} de ${formatFileSize(progress.bytesTotal)}`
            : 'Preparando...'}
          {waiting ? ' · Conexão perdida, tentando de novo...' : left ? ` · cerca de ${left} restantes` : ''}
        </span>
        <Button type="button" variant="ghost" size="sm" onClick={onCancel}>
          <X aria-hidden="true" /> Cancelar envio
        </Button>
      </div>
    </div>
  );
}
