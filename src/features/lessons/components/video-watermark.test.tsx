import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SchoolRow } from '@/platform/session';
import { signedIn, testProfile, WithSession } from '@/test/session';
import { VideoWatermark } from './video-watermark';

const school = (videoWatermark: boolean) => ({ id: 's1', video_watermark: videoWatermark }) as SchoolRow;

function renderWatermark(session = signedIn({ profile: { ...testProfile, cpf: '123.456.789-09' }, school: school(true) })) {
  return render(
    <WithSession value={session}>
      <div data-testid="frame">
        <VideoWatermark />
      </div>
    </WithSession>,
  );
}

const place = () => {
  const { left, top } = screen.getByTestId('video-watermark').style;
  return { left, top };
};

describe('VideoWatermark', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('shows the viewer’s name and masked CPF, hidden from screen readers and from clicks', () => {
    renderWatermark();
    const mark = screen.getByTestId('video-watermark');
    expect(mark).toHaveTextContent('Ana Aluna · ***.456.789-**');
    expect(mark).toHaveAttribute('aria-hidden', 'true');
    expect(mark).toHaveStyle({ pointerEvents: 'none' });
    expect(mark.textContent).not.toContain('123');
  });

  it('shows the e-mail when the viewer has no CPF', () => {
    renderWatermark(signedIn({ school: school(true) }));
    expect(screen.getByTestId('video-watermark')).toHaveTextContent('Ana Aluna · aluno@escola-demo.com.br');
  });

  it('moves to a new place after 15 to 30 seconds, and again after that', () => {
    const random = vi.spyOn(Math, 'random');
    random.mockReturnValue(0.1);
    renderWatermark();
    const first = place();
    // Not before 15 s.
    random.mockReturnValue(0.8);
    act(() => vi.advanceTimersByTime(14_000));
    expect(place()).toEqual(first);
    // By 30 s (0.8 → a delay of 27 s after the first 16.5 s).
    act(() => vi.advanceTimersByTime(16_000));
    const second = place();
    expect(second).not.toEqual(first);
    random.mockReturnValue(0.3);
    act(() => vi.advanceTimersByTime(30_000));
    expect(place()).not.toEqual(second);
  });

  it('is not drawn when the school turned it off, nor signed out', () => {
    renderWatermark(signedIn({ profile: { ...testProfile, cpf: '123.456.789-09' }, school: school(false) }));
    expect(screen.queryByTestId('video-watermark')).toBeNull();
    expect(screen.getByTestId('frame')).toBeEmptyDOMElement();
  });

  it('is drawn for a viewer without a school row (on unless a school says off)', () => {
    renderWatermark(signedIn({ school: null }));
    expect(screen.getByTestId('video-watermark')).toHaveTextContent('Ana Aluna');
  });
});
