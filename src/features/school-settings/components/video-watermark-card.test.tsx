import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SchoolRow } from '@/platform/session';
import { toast } from '@/platform/toast';
import { renderScreen } from '@/test/render';
import type { SchoolUpdate } from '../api/queries';
import { VideoWatermarkCard } from './video-watermark-card';

const updateSchool = vi.hoisted(() => vi.fn());
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), updateSchool }));

/** The school the mocked server keeps. */
let kept: SchoolRow;
const LABEL = "Marca d'água com o nome do aluno nos vídeos";

describe('Configurações › Vídeos das aulas', () => {
  beforeEach(() => {
    kept = { id: 's1', name: 'Escola Demo', video_watermark: true } as SchoolRow;
    updateSchool.mockReset().mockImplementation(async (_c: unknown, _id: string, patch: SchoolUpdate) => (kept = { ...kept, ...patch } as SchoolRow));
  });

  it('is on by default; a flip saves at once and says Salvo, again on the way back; a re-mount shows what was kept', async () => {
    const view = renderScreen(<VideoWatermarkCard school={kept} />);
    const toggle = screen.getByRole('switch', { name: LABEL });
    expect(toggle).toBeChecked();
    await userEvent.click(toggle);
    await waitFor(() => expect(updateSchool).toHaveBeenCalledWith(expect.anything(), 's1', { video_watermark: false }));
    expect(await screen.findByText('Salvo')).toBeInTheDocument();
    expect(kept.video_watermark).toBe(false);
    expect(toast.success).not.toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: 'Salvar' })).toBeNull();

    await userEvent.click(toggle);
    await waitFor(() => expect(updateSchool).toHaveBeenLastCalledWith(expect.anything(), 's1', { video_watermark: true }));
    await waitFor(() => expect(kept.video_watermark).toBe(true));

    await userEvent.click(toggle);
    await waitFor(() => expect(kept.video_watermark).toBe(false));
    view.unmount();
    renderScreen(<VideoWatermarkCard school={kept} />);
    expect(screen.getByRole('switch', { name: LABEL })).not.toBeChecked();
  });

  it('a refused save flips back and says Não foi salvo', async () => {
    updateSchool.mockRejectedValue(new Error('permission denied for table schools'));
    renderScreen(<VideoWatermarkCard school={kept} />);
    const toggle = screen.getByRole('switch', { name: LABEL });
    await userEvent.click(toggle);
    expect(await screen.findByText('Não foi salvo')).toBeInTheDocument();
    expect(toggle).toBeChecked();
  });
});
