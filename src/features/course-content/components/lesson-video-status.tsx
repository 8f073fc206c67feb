// The lesson editor's word on where an uploaded video goes (issue 39): to the platform's video host,
// streamed and not downloadable, or to Storage, downloadable (said plainly, with how to turn protection on),
// and the hosted video's processing: waiting for its file, "Processando vídeo… 45%", ready, or failed
// with "Enviar novamente".
import { AlertTriangle, CheckCircle2, Film, Loader2, RotateCcw, ShieldAlert, ShieldCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { ProgressBar } from '@/components/ui/progress-bar';
import type { LessonVideo } from '../api/queries';

/** Where a new file goes; nothing while the platform's answer is unknown. */
export function VideoHostNote({ hosted }: { hosted: boolean | undefined }) {
  if (hosted === undefined) return null;
  if (hosted)
    return (
      <p className="flex gap-2 text-xs text-muted-foreground">
        <ShieldCheck className="mt-px size-4 shrink-0 text-green-700" aria-hidden="true" />
        <span>
          Vídeo protegido: vai para o serviço de vídeo da plataforma e os alunos assistem em streaming, sem um arquivo
          para baixar.
        </span>
      </p>
    );
  return (
    <div className="flex gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
      <ShieldAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <div className="grid gap-1">
        <p className="font-medium">Vídeos enviados aqui podem ser baixados pelos alunos.</p>
        <p>
          Esta plataforma ainda não tem um serviço de vídeo configurado: o arquivo fica guardado como está, e quem
          assiste pode salvá-lo ou repassar o link. Para proteger os vídeos (streaming sem download), peça ao
          administrador da plataforma que configure o serviço de vídeo (Bunny Stream). Depois disso, os novos envios já
          são protegidos; um vídeo enviado antes fica protegido ao ser enviado de novo.
        </p>
      </div>
    </div>
  );
}

/** The hosted video's processing, read again every few seconds until it is ready or failed. */
export function LessonVideoStatus({
  video,
  onSendAgain,
}: {
  video: LessonVideo | null | undefined;
  onSendAgain: () => void;
}) {
  const sendAgain = (
    <Button type="button" variant="outline" size="sm" onClick={onSendAgain}>
      <RotateCcw aria-hidden="true" /> Enviar novamente
    </Button>
  );
  if (!video)
    return (
      <Row icon={<Film className="size-4 shrink-0" aria-hidden="true" />}>
        <span>Vídeo protegido</span>
      </Row>
    );
  if (video.status === 'failed')
    return (
      <div role="alert" className="grid gap-2 text-sm">
        <p className="flex items-center gap-2 font-medium text-destructive">
          <AlertTriangle className="size-4 shrink-0" aria-hidden="true" /> Falha ao processar o vídeo
        </p>
        {video.failure_reason && video.failure_reason !== 'Falha ao processar o vídeo' && (
          <p className="text-xs text-muted-foreground">{video.failure_reason}</p>
        )}
        <div>{sendAgain}</div>
      </div>
    );
  if (video.status === 'ready')
    return (
      <Row icon={<CheckCircle2 className="size-4 shrink-0 text-green-700" aria-hidden="true" />}>
        <span>Vídeo pronto{video.renditions.length > 0 ? ` · ${video.renditions.join(', ')}` : ''}</span>
      </Row>
    );
  if (video.status === 'processing')
    return (
      <div role="status" className="grid gap-2 text-sm">
        <p className="flex items-center gap-2">
          <Loader2 className="size-4 shrink-0 animate-spin" aria-hidden="true" />
          <span className="tabular-nums">Processando vídeo… {video.percent}%</span>
        </p>
        <ProgressBar value={video.percent} label={`Processamento do vídeo: ${video.percent}%`} />
      </div>
    );
  // waiting: the host has the video but not yet its file (an upload under way, or one that was cut short).
  return (
    <div role="status" className="grid gap-2 text-sm">
      <p className="flex items-center gap-2">
        <Loader2 className="size-4 shrink-0 animate-spin" aria-hidden="true" /> Aguardando o arquivo do vídeo…
      </p>
      <p className="text-xs text-muted-foreground">Se o envio foi interrompido, envie o arquivo de novo.</p>
      <div>{sendAgain}</div>
    </div>
  );
}

function Row({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <p role="status" className="flex items-center gap-2 text-sm">
      {icon}
      {children}
    </p>
  );
}
