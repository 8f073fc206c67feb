import { afterEach, describe, expect, it, vi } from 'vitest';
import { playbackDeviceId, renditionLabel, underLatestToken } from './hosted-playback';

const first = 'https://vz-1.b-cdn.net/bcdn_token=AAA&token_path=%2Fg1%2F&expires=100/g1/playlist.m3u8';
const latest = 'https://vz-1.b-cdn.net/bcdn_token=BBB&token_path=%2Fg1%2F&expires=400/g1/playlist.m3u8';

describe('underLatestToken', () => {
  it('moves a playlist, segment or key derived from the first URL under the newest token', () => {
    expect(
      underLatestToken(
        'https://vz-1.b-cdn.net/bcdn_token=AAA&token_path=%2Fg1%2F&expires=100/g1/720p/video.m3u8',
        first,
        latest,
      ),
    ).toBe('https://vz-1.b-cdn.net/bcdn_token=BBB&token_path=%2Fg1%2F&expires=400/g1/720p/video.m3u8');
    expect(
      underLatestToken(
        'https://vz-1.b-cdn.net/bcdn_token=AAA&token_path=%2Fg1%2F&expires=100/g1/360p/video.key',
        first,
        latest,
      ),
    ).toBe('https://vz-1.b-cdn.net/bcdn_token=BBB&token_path=%2Fg1%2F&expires=400/g1/360p/video.key');
  });

  it('leaves anything else, and the first URL’s own requests before a renewal, as they are', () => {
    expect(underLatestToken('https://other.example/g1/360p/video0.ts', first, latest)).toBe(
      'https://other.example/g1/360p/video0.ts',
    );
    expect(
      underLatestToken(
        'https://vz-1.b-cdn.net/bcdn_token=AAA&token_path=%2Fg2%2F&expires=100/g2/360p/video0.ts',
        first,
        latest,
      ),
    ).toBe('https://vz-1.b-cdn.net/bcdn_token=AAA&token_path=%2Fg2%2F&expires=100/g2/360p/video0.ts');
    expect(underLatestToken(first, first, first)).toBe(first);
  });
});

describe('renditionLabel', () => {
  it('names a rendition by its height, or its bitrate without one', () => {
    expect(renditionLabel({ height: 720, bitrate: 2_800_000 })).toBe('720p');
    expect(renditionLabel({ bitrate: 800_000 })).toBe('800 kbps');
  });
});

describe('playbackDeviceId', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    localStorage.clear();
  });

  it('is made once and kept in localStorage: the same device after a reload', () => {
    const id = playbackDeviceId();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(localStorage.getItem('plataforma:video-device')).toBe(id);
    expect(playbackDeviceId()).toBe(id);
  });

  it('without storage, one id for the page’s life', () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new Error('denied');
    });
    const id = playbackDeviceId();
    expect(playbackDeviceId()).toBe(id);
  });
});
