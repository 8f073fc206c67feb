// What image transformations may cost the machine (issue 37, attacks on the fixes). Anyone may ask a
// public bucket's render URL, and each new width misses the cache: a 2500×2500 avatar asked as AVIF at
// eight new widths at once took ~20 s of CPU each and made another student's sign-in and course list
// take 81 s; a 1.4 KB GIF of 60 frames of 912×912 rendered back as GIF cost 27-30 s.
//  - Renders take turns by client address (fair-lanes.ts): one at a time per address, and at most the
//    cores but one, and libuv's threads but two, over all addresses, so the event loop and PGlite keep a
//    core and the file reads, crypto and zlib that share libuv's pool keep threads. libvips works on the
//    render's own thread only (sharp.concurrency(1)). Past RENDER_QUEUE_BOUND waiting renders an address
//    gets 429 "Too many requests", as storage-api passes on imgproxy's when its queue is full.
//  - Each address may start `missesPerMinute` renders a minute (config.renderMissesPerMinute); what the
//    cache already holds is served without counting.
//  - The output work is bounded: AVIF at imgproxy's default speed (IMGPROXY_AVIF_SPEED 8, libvips effort
//    1: ~0.4 s for 2400 px where effort 4 took 12 s), and an animation whose frames × output pixels pass
//    MAX_ANIMATION_OUTPUT_PIXELS is rendered as its first frame, as imgproxy renders an animation past its
//    frame limits as a still image.
import os from 'node:os';
import sharp from 'sharp';
import { RateLimiter } from '../auth/rate-limit.ts';
import { FairLanes, LaneQueueFull } from '../fair-lanes.ts';
import { errors } from './errors.ts';
import { clamp, type TransformOptions } from './render-options.ts';

sharp.concurrency(1);

/** libvips' AVIF effort (0 fastest, 9 slowest) = 9 - imgproxy's default IMGPROXY_AVIF_SPEED of 8. */
export const AVIF_EFFORT = 1;
/** Frames × output pixels an animated answer may have; past it, the first frame alone (a still image). */
export const MAX_ANIMATION_OUTPUT_PIXELS = 8_000_000;
/** Renders one address may have waiting (a page's new images: one per image, whatever the widths asked). */
export const RENDER_QUEUE_BOUND = 16;
const MINUTE_MS = 60_000;

/** Renders at once: the cores but one, and libuv's threads (UV_THREADPOOL_SIZE, 4 by default) but two. */
export function renderSlots(cores = os.availableParallelism(), threadpool = Number(process.env.UV_THREADPOOL_SIZE) || 4): number {
  return Math.max(1, Math.min(cores - 1, threadpool - 2));
}

/** Pixels of one frame of the answer: the box asked for, never larger than the source (no enlargement). */
export function outputFramePixels(width: number, height: number, t: TransformOptions): number {
  const w = t.width ? Math.min(clamp(t.width), width) : 0;
  const h = t.height ? Math.min(clamp(t.height), height) : 0;
  if (w && h) return w * h;
  if (w) return w * Math.max(1, Math.round((height * w) / width));
  if (h) return h * Math.max(1, Math.round((width * h) / height));
  return width * height;
}

/** Frames of the answer: all those decoded, or the first alone when together they pass the output bound. */
export function framesToRender(frames: number, framePixels: number): number {
  return frames > 1 && frames * framePixels > MAX_ANIMATION_OUTPUT_PIXELS ? 1 : frames;
}

/** The renderer's turns and each address's budget of new renders. */
export function createRenderTurns(missesPerMinute: number) {
  const lanes = new FairLanes({ slots: renderSlots(), perLane: () => 1, maxQueued: () => RENDER_QUEUE_BOUND });
  const misses = new RateLimiter(missesPerMinute, MINUTE_MS);
  return {
    lanes,
    /** Runs one cache-miss render for `address` in its turn; 429 past its budget or its queue. */
    async take<T>(address: string, render: () => Promise<T>): Promise<T> {
      if (misses.wait(address) > 0) {
        throw errors.tooManyRequests(`Too many new image transformations from this address: at most ${missesPerMinute} a minute (local-supabase)`);
      }
      misses.record(address);
      try {
        return await lanes.run(address, render);
      } catch (e) {
        throw e instanceof LaneQueueFull ? errors.tooManyRequests() : e;
      }
    },
  };
}
export type RenderTurns = ReturnType<typeof createRenderTurns>;
