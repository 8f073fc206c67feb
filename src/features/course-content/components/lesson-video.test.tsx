// A lesson's uploaded video in the editor (issue 39): with the platform's video host the file goes straight
// to the host where video-upload says, then the lesson shows its processing until ready or failed (with
// "Enviar novamente"); without one the file goes to Storage as before and the field says students can
// download it, and how to turn protection on. The upload itself (tus-js-client) is a browser journey; here
// it is a stand-in that reports progress when told.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/platform/toast';
import type { UploadProgress } from '@/platform/resumable-upload';
import { renderScreen } from '@/test/render';
import { ContentEditor } from './content-editor';
import { LessonDialog } from './lesson-dialog';

const api = vi.hoisted(() => ({
  fetchCourseContent: vi.fn(),
  fetchLessonForEdit: vi.fn(),
  fetchLessonVideo: vi.fn(),
  fetchCourseLessonVideos: vi.fn(),
  fetchVideoHostAvailable: vi.fn(),
  requestHostedUpload: vi.fn(),
  saveLesson: vi.fn(),
  attachUploadedVideo: vi.fn(),
}));
const uploads = vi.hoisted(() => ({ startHostedUpload: vi.fn(), startResumableUpload: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));
vi.mock('@/platform/resumable-upload', async (importOriginal) => ({ ...(await importOriginal<object>()), ...uploads }));

const lesson = (video_type: string) => ({
  id: 'l1',
  module_id: 'm1',
  title: 'Tabelas dinâmicas',
  order_index: 0,
  is_preview: false,
  duration_sec: 600,
  video_type,
});
const target = {
  endpoint: 'https://video.bunnycdn.com/tusupload',
  headers: { VideoId: 'v1', LibraryId: '1', AuthorizationSignature: 'ab', AuthorizationExpire: '9' },
  metadata: { title: 'Tabelas dinâmicas' },
};
const file = new File(['x'.repeat(1000)], 'aula.mp4', { type: 'video/mp4' });

/** A stand-in upload: `progress` reports bytes sent, `finish` ends it. */
function controlledUpload() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  let report: ((p: UploadProgress) => void) | undefined;
  const start = (options: { onProgress?: (p: UploadProgress) => void }) => {
    report = options.onProgress;
    return { done, cancel: vi.fn() };
  };
  const progress = (percent: number) =>
    act(() => report?.({ bytesSent: percent * 10, bytesTotal: 1000, percent, secondsLeft: 30 }));
  return { start, progress, finish: () => act(finish) };
}

function openLesson(lessonId: string | null = 'l1') {
  const onClose = vi.fn();
  renderScreen(
    <LessonDialog
      target={{ moduleId: 'm1', lessonId, orderIndex: 0 }}
      onClose={onClose}
      courseId="c1"
      schoolId="s1"
      renderMaterials={() => null}
      renderQuiz={() => null}
    />,
  );
  return onClose;
}

async function videoTab() {
  const dialog = await screen.findByRole('dialog');
  await userEvent.click(await within(dialog).findByRole('tab', { name: 'Vídeo' }));
  return dialog;
}

describe('the lesson video with the video host', () => {
  beforeEach(() => {
    Object.values({ ...api, ...uploads }).forEach((f) => f.mockReset());
    vi.mocked(toast.success).mockReset();
    api.fetchVideoHostAvailable.mockResolvedValue(true);
    api.saveLesson.mockResolvedValue('l1');
    api.fetchCourseLessonVideos.mockResolvedValue([]);
  });

  it('sends the file straight to the host where video-upload says, showing the upload as it goes', async () => {
    api.fetchLessonForEdit.mockResolvedValue({ lesson: lesson('none'), content: '', video_url: null });
    api.requestHostedUpload.mockResolvedValue(target);
    const upload = controlledUpload();
    uploads.startHostedUpload.mockImplementation(upload.start);
    const onClose = openLesson();
    const dialog = await videoTab();
    await userEvent.click(within(dialog).getByLabelText('Enviar arquivo'));
    expect(await within(dialog).findByText(/Vídeo protegido: vai para o serviço de vídeo da plataforma/)).toBeVisible();
    expect(within(dialog).queryByText(/podem ser baixados pelos alunos/)).not.toBeInTheDocument();

    await userEvent.upload(within(dialog).getByLabelText('Arquivo de vídeo'), file);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar Aula' }));
    await waitFor(() =>
      expect(uploads.startHostedUpload).toHaveBeenCalledWith(expect.objectContaining({ target, file })),
    );
    expect(api.requestHostedUpload).toHaveBeenCalledWith('l1');
    expect(uploads.startResumableUpload).not.toHaveBeenCalled();

    await upload.progress(45);
    const status = within(dialog).getByRole('status');
    expect(status).toHaveTextContent('Enviando aula.mp4');
    expect(within(status).getByRole('progressbar', { name: 'Envio do vídeo: 45%' })).toBeInTheDocument();
    await upload.finish();
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Aula salva! O vídeo está sendo processado.'));
    expect(onClose).toHaveBeenCalled();
    expect(api.attachUploadedVideo).not.toHaveBeenCalled();
  });

  it('shows "Processando vídeo… 45%" and reads the video again until it is ready', async () => {
    api.fetchLessonForEdit.mockResolvedValue({ lesson: lesson('upload'), content: '', video_url: 'video-host' });
    api.fetchLessonVideo
      .mockResolvedValueOnce({ status: 'processing', percent: 45, renditions: [], failure_reason: null })
      .mockResolvedValue({ status: 'ready', percent: 100, renditions: ['240p', '360p', '720p'], failure_reason: null });
    openLesson();
    const dialog = await videoTab();
    expect(await within(dialog).findByText('Processando vídeo… 45%')).toBeVisible();
    expect(within(dialog).getByRole('progressbar', { name: 'Processamento do vídeo: 45%' })).toBeInTheDocument();
    // The next read, a few seconds later (the host's webhook moved it to ready).
    expect(await within(dialog).findByText('Vídeo pronto · 240p, 360p, 720p', {}, { timeout: 8000 })).toBeVisible();
    expect(api.fetchLessonVideo).toHaveBeenCalledWith(expect.anything(), 'l1');
    expect(within(dialog).queryByRole('button', { name: 'Enviar novamente' })).not.toBeInTheDocument();
  }, 15_000);

  it('a failed video says so with the reason, and "Enviar novamente" sends a new file through video-upload', async () => {
    api.fetchLessonForEdit.mockResolvedValue({ lesson: lesson('upload'), content: '', video_url: 'video-host' });
    api.fetchLessonVideo.mockResolvedValue({
      status: 'failed',
      percent: 10,
      renditions: [],
      failure_reason: 'Invalid data found when processing input',
    });
    api.requestHostedUpload.mockResolvedValue(target);
    const upload = controlledUpload();
    uploads.startHostedUpload.mockImplementation(upload.start);
    openLesson();
    const dialog = await videoTab();
    const failure = await within(dialog).findByRole('alert');
    expect(failure).toHaveTextContent('Falha ao processar o vídeo');
    expect(failure).toHaveTextContent('Invalid data found when processing input');

    const input = within(dialog).getByLabelText('Substituir por outro arquivo de vídeo');
    const picker = vi.spyOn(input, 'click');
    await userEvent.click(within(failure).getByRole('button', { name: 'Enviar novamente' }));
    expect(picker).toHaveBeenCalled();
    await userEvent.upload(input, file);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar Aula' }));
    // The lesson keeps pointing at its hosted video while saved; the new file replaces it at the host.
    await waitFor(() => expect(api.requestHostedUpload).toHaveBeenCalledWith('l1'));
    expect(api.saveLesson.mock.calls[0]![1].values).toEqual(
      expect.objectContaining({ video_type: 'upload', video_url: 'video-host' }),
    );
    await waitFor(() =>
      expect(uploads.startHostedUpload).toHaveBeenCalledWith(expect.objectContaining({ target, file })),
    );
    await upload.finish();
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Aula salva! O vídeo está sendo processado.'));
  });

  it("the course outline shows each hosted video's processing", async () => {
    api.fetchCourseContent.mockResolvedValue({
      course: { id: 'c1', school_id: 's1', title: 'Excel', status: 'PUBLISHED' },
      modules: [
        {
          id: 'm1',
          course_id: 'c1',
          title: 'Fórmulas',
          description: null,
          thumbnail_url: null,
          order_index: 0,
          release_mode: 'IMMEDIATE',
          release_after_days: null,
          release_on: null,
          lessons: [
            { ...lesson('upload'), id: 'l1', title: 'PROCV' },
            { ...lesson('upload'), id: 'l2', title: 'SOMA', order_index: 1 },
            { ...lesson('upload'), id: 'l3', title: 'SE', order_index: 2 },
          ],
        },
      ],
    });
    api.fetchCourseLessonVideos.mockResolvedValue([
      { lesson_id: 'l1', status: 'processing', percent: 45 },
      { lesson_id: 'l2', status: 'failed', percent: 0 },
      { lesson_id: 'l3', status: 'ready', percent: 100 },
    ]);
    renderScreen(<ContentEditor courseId="c1" renderMaterials={() => null} renderQuiz={() => null} />);
    const [procv, soma, se] = within(await screen.findByRole('list', { name: 'Aulas' })).getAllByRole('listitem');
    expect(await within(procv!).findByText('Processando vídeo… 45%')).toBeVisible();
    expect(within(soma!).getByText('Falha ao processar o vídeo')).toBeVisible();
    expect(se).toHaveTextContent('Vídeo protegido');
  });
});

describe('the lesson video without a video host', () => {
  beforeEach(() => {
    Object.values({ ...api, ...uploads }).forEach((f) => f.mockReset());
    vi.mocked(toast.success).mockReset();
    api.fetchVideoHostAvailable.mockResolvedValue(false);
    api.saveLesson.mockResolvedValue('l1');
  });

  it('says plainly that students can download the video and how to protect it, and sends the file to Storage', async () => {
    api.fetchLessonForEdit.mockResolvedValue({
      lesson: lesson('upload'),
      content: '',
      video_url: 's1/c1/l1/antigo.mp4',
    });
    api.requestHostedUpload.mockResolvedValue(null);
    const upload = controlledUpload();
    uploads.startResumableUpload.mockImplementation(upload.start);
    openLesson();
    const dialog = await videoTab();
    expect(within(dialog).getByText('Vídeo enviado: antigo.mp4')).toBeVisible();
    expect(await within(dialog).findByText('Vídeos enviados aqui podem ser baixados pelos alunos.')).toBeVisible();
    expect(
      within(dialog).getByText(/peça ao administrador da plataforma que configure o serviço de vídeo \(Bunny Stream\)/),
    ).toBeVisible();

    await userEvent.upload(within(dialog).getByLabelText('Substituir por outro arquivo de vídeo'), file);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar Aula' }));
    await waitFor(() =>
      expect(uploads.startResumableUpload).toHaveBeenCalledWith(
        expect.objectContaining({ bucket: 'lesson-videos', file }),
      ),
    );
    expect(uploads.startHostedUpload).not.toHaveBeenCalled();
    await upload.finish();
    await waitFor(() =>
      expect(api.attachUploadedVideo).toHaveBeenCalledWith(
        expect.anything(),
        'l1',
        expect.stringMatching(/^s1\/c1\/l1\/.+aula\.mp4$/),
        null, // no poster: this test's browser (jsdom) cannot decode the video
      ),
    );
    expect(toast.success).toHaveBeenCalledWith('Aula salva!');
  });
});
