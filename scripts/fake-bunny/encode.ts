// The fake's encoder: what Bunny Stream does with an upload, with the ffmpeg binary that
// @ffmpeg-installer/ffmpeg ships in its npm package (nothing downloaded at run time). The source becomes
// AES-128 encrypted HLS in the video's folder, laid out as Bunny delivers it:
//   playlist.m3u8                 master playlist, one entry per rendition ready
//   240p/video.m3u8, video0.ts…   each rendition's playlist and encrypted segments
//   240p/video.key                the rendition's key (fetched by the player with the same token)
//   thumbnail.jpg
// 240p and 360p always, 720p too when the source is at least 720 lines high (the resolutions docs/video.md
// asks the real library to enable). No MP4 is ever written there.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

export const FFMPEG: string = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;

export interface SourceInfo {
  width: number;
  height: number;
  durationSeconds: number;
  framerate: number;
  hasAudio: boolean;
}

export interface Rendition {
  name: string;
  height: number;
  videoBitrate: string;
}

const RENDITIONS: Rendition[] = [
  // The first segment on a slow link: hls.js starts on the rendition whose segment it can fetch soonest.
  { name: '240p', height: 240, videoBitrate: '400k' },
  { name: '360p', height: 360, videoBitrate: '800k' },
  { name: '720p', height: 720, videoBitrate: '2500k' },
];
/** Segment length (s): short segments start playing sooner. */
const SEGMENT_SECONDS = 2;

/** Runs ffmpeg; rejects with its last error lines. `onLine` gets each stdout line (the -progress output). */
function ffmpeg(args: string[], onLine?: (line: string) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(FFMPEG, ['-hide_banner', '-nostdin', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let pending = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-20_000)));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      const lines = (pending + d).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) onLine?.(line.trim());
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stderr) : reject(new Error(lastLines(stderr) || `ffmpeg saiu com ${code}`))));
  });
}

const lastLines = (text: string) => text.trim().split('\n').slice(-2).join(' ').trim();

/** What the source holds, from ffmpeg's own reading of it (it exits 1 with no output: expected). */
export async function probe(source: string): Promise<SourceInfo> {
  const full = await new Promise<string>((resolve, reject) => {
    const child = spawn(FFMPEG, ['-hide_banner', '-nostdin', '-i', source], { stdio: ['ignore', 'ignore', 'pipe'] });
    let out = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('close', () => resolve(out));
  });
  const video = /Stream #\d+:\d+.*?: Video: .*?, (\d{2,5})x(\d{2,5})/.exec(full);
  if (!video) throw new Error(`O arquivo não contém um vídeo legível (${lastLines(full)})`);
  const duration = /Duration: (\d+):(\d+):(\d+(?:\.\d+)?)/.exec(full);
  const fps = /, (\d+(?:\.\d+)?) fps/.exec(full);
  return {
    width: Number(video[1]),
    height: Number(video[2]),
    durationSeconds: duration ? Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3]) : 0,
    framerate: fps ? Number(fps[1]) : 0,
    hasAudio: /Stream #\d+:\d+.*?: Audio: /.test(full),
  };
}

export function renditionsFor(info: SourceInfo): Rendition[] {
  return RENDITIONS.filter((r) => r.height <= 360 || info.height >= r.height);
}

/** One rendition, encrypted with a fresh key; `onProgress` gets 0..1 of this rendition. */
export async function encodeRendition(source: string, info: SourceInfo, folder: string, r: Rendition, onProgress: (fraction: number) => void): Promise<void> {
  const dir = path.join(folder, r.name);
  await mkdir(dir, { recursive: true });
  const keyFile = path.join(dir, 'video.key');
  await writeFile(keyFile, randomBytes(16));
  // The key's URI as the playlist names it (relative: the player keeps the token path), then its file;
  // kept beside the source, out of the served folder.
  const keyInfo = `${source}.${r.name}.keyinfo`;
  await writeFile(keyInfo, `video.key\n${keyFile}\n`);
  const audio = info.hasAudio ? ['-map', '0:a:0', '-c:a', 'aac', '-b:a', '96k', '-ac', '2'] : [];
  const totalUs = Math.max(1, info.durationSeconds * 1e6);
  try {
    await ffmpeg(
      [
        '-loglevel', 'error', '-progress', 'pipe:1', '-nostats', '-i', source,
        '-map', '0:v:0', '-vf', `scale=-2:${r.height}`, '-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'main', '-pix_fmt', 'yuv420p',
        '-b:v', r.videoBitrate, '-maxrate', r.videoBitrate, '-bufsize', r.videoBitrate,
        '-force_key_frames', `expr:gte(t,n_forced*${SEGMENT_SECONDS})`, '-sc_threshold', '0',
        ...audio,
        '-f', 'hls', '-hls_time', String(SEGMENT_SECONDS), '-hls_playlist_type', 'vod', '-hls_key_info_file', keyInfo,
        '-hls_segment_filename', path.join(dir, 'video%d.ts'), path.join(dir, 'video.m3u8'),
      ],
      (line) => {
        const m = /^out_time_(?:us|ms)=(\d+)$/.exec(line);
        if (m) onProgress(Math.min(1, Number(m[1]) / totalUs));
      },
    );
  } finally {
    await rm(keyInfo, { force: true });
  }
}

/** The master playlist over the renditions done; each one's bandwidth measured from its segments. */
export async function writeMasterPlaylist(folder: string, info: SourceInfo, done: Rendition[]): Promise<void> {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3'];
  for (const r of done) {
    const dir = path.join(folder, r.name);
    const segments = (await readdir(dir)).filter((f) => f.endsWith('.ts'));
    const bytes = (await Promise.all(segments.map((f) => stat(path.join(dir, f))))).reduce((sum, s) => sum + s.size, 0);
    const bandwidth = Math.round((bytes * 8 * 1.2) / Math.max(1, info.durationSeconds));
    const width = Math.round((info.width * r.height) / info.height / 2) * 2;
    lines.push(`#EXT-X-STREAM-INF:BANDWIDTH=${bandwidth},RESOLUTION=${width}x${r.height}`, `${r.name}/video.m3u8`);
  }
  await writeFile(path.join(folder, 'playlist.m3u8'), lines.join('\n') + '\n');
}

export async function writeThumbnail(source: string, info: SourceInfo, folder: string): Promise<void> {
  const at = Math.min(1, info.durationSeconds / 2);
  await ffmpeg(['-loglevel', 'error', '-ss', String(at), '-i', source, '-frames:v', '1', '-vf', `scale=-2:${Math.min(720, info.height)}`, '-y', path.join(folder, 'thumbnail.jpg')]);
}

/** A test clip made by ffmpeg itself (a test pattern with a tone): the tests' upload and the demo's video. */
export async function makeTestClip(file: string, o: { seconds: number; width: number; height: number }): Promise<void> {
  await ffmpeg([
    '-loglevel', 'error', '-f', 'lavfi', '-i', `testsrc2=size=${o.width}x${o.height}:rate=25`, '-f', 'lavfi', '-i', 'sine=frequency=440',
    '-t', String(o.seconds), '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', '-y', file,
  ]);
}
