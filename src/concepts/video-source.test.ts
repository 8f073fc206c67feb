import { describe, expect, it } from 'vitest';
import { checkVideoSource, formatTimeLeft, videoUrlKind, type VideoSourceValues } from './video-source';
import type { z } from '@/platform/zod';

describe('videoUrlKind: the one YouTube/Vimeo check of lessons and announcements', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'youtube'],
    ['https://m.youtube.com/watch?v=dQw4w9WgXcQ&t=42', 'youtube'],
    ['https://youtu.be/dQw4w9WgXcQ', 'youtube'],
    ['https://www.youtube.com/shorts/dQw4w9WgXcQ', 'youtube'],
    ['https://www.youtube.com/embed/dQw4w9WgXcQ', 'youtube'],
    ['https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ', 'youtube'],
    ['https://vimeo.com/76979871', 'vimeo'],
    ['https://player.vimeo.com/video/76979871', 'vimeo'],
  ])('%s is %s', (url, kind) => expect(videoUrlKind(url)).toBe(kind));

  it.each([
    'https://example.com/video.mp4',
    'javascript:alert(1)',
    'https://www.youtube.com/',
    'https://youtube.com.evil.com/watch?v=x',
    'https://vimeo.com/channels',
    'ftp://vimeo.com/123',
    'youtube.com/watch?v=x',
    '',
  ])('refuses %s', (url) => expect(videoUrlKind(url)).toBeNull());
});

describe('checkVideoSource', () => {
  const issues = (v: VideoSourceValues) => {
    const found: unknown[] = [];
    checkVideoSource(v, { addIssue: (i: unknown) => found.push(i) } as unknown as z.RefinementCtx);
    return found;
  };
  it('asks for a YouTube or Vimeo URL only when that is the chosen source', () => {
    expect(issues({ video_mode: 'url', video_url: 'https://example.com/x' })).toEqual([
      expect.objectContaining({ path: ['video_url'], message: 'Informe uma URL válida do YouTube ou do Vimeo' }),
    ]);
    expect(issues({ video_mode: 'url', video_url: 'https://vimeo.com/1' })).toEqual([]);
    expect(issues({ video_mode: 'none', video_url: 'lixo' })).toEqual([]);
  });
});

describe('formatTimeLeft', () => {
  it('says the time left of an upload', () => {
    expect(formatTimeLeft(40.2)).toBe('41 s');
    expect(formatTimeLeft(125)).toBe('2 min 5 s');
    expect(formatTimeLeft(3780)).toBe('1 h 3 min');
    expect(formatTimeLeft(null)).toBe('');
  });
});
