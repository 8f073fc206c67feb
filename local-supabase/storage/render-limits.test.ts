// The render limits' arithmetic and turns: slots left for the event loop and libuv's other work, the
// output bound of animations, and each address's budget and queue.
import { describe, expect, it } from 'vitest';
import { HttpError } from '../http.ts';
import { createRenderTurns, framesToRender, MAX_ANIMATION_OUTPUT_PIXELS, outputFramePixels, RENDER_QUEUE_BOUND, renderSlots } from './render-limits.ts';

describe('render limits', () => {
  it('renders on the cores but one and libuv’s threads but two, at least one', () => {
    expect(renderSlots(2, 4)).toBe(1);
    expect(renderSlots(1, 4)).toBe(1);
    expect(renderSlots(8, 4)).toBe(2);
    expect(renderSlots(8, 16)).toBe(7);
  });

  it('counts the output frame as asked, never larger than the source, any width 1-2500 as it is', () => {
    expect(outputFramePixels(912, 912, { width: 897 })).toBe(897 * 897);
    expect(outputFramePixels(912, 912, { width: 5000 })).toBe(912 * 912);
    expect(outputFramePixels(1200, 800, { width: 301 })).toBe(301 * 201);
    expect(outputFramePixels(1200, 800, { height: 100 })).toBe(150 * 100);
    expect(outputFramePixels(1200, 800, { width: 300, height: 300, resize: 'contain' })).toBe(300 * 300);
    expect(outputFramePixels(400, 300, {})).toBe(400 * 300);
  });

  it('keeps an animation whole up to the output bound, its first frame past it', () => {
    expect(framesToRender(60, 320 * 320)).toBe(60);
    expect(framesToRender(60, 897 * 897)).toBe(1);
    expect(framesToRender(1, 2500 * 2500)).toBe(1);
    expect(framesToRender(2, MAX_ANIMATION_OUTPUT_PIXELS / 2)).toBe(2);
    expect(framesToRender(2, MAX_ANIMATION_OUTPUT_PIXELS / 2 + 1)).toBe(1);
  });

  it('refuses an address past its budget a minute, not another address', async () => {
    const turns = createRenderTurns(2);
    const render = async () => 'ok';
    expect(await turns.take('a', render)).toBe('ok');
    expect(await turns.take('a', render)).toBe('ok');
    const refused = await turns.take('a', render).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).status).toBe(429);
    expect(await turns.take('b', render)).toBe('ok');
    // 0: no budget.
    const unlimited = createRenderTurns(0);
    for (let i = 0; i < 100; i++) await unlimited.take('a', render);
  });

  it('runs one render per address at a time and refuses past the address’s queue bound', async () => {
    const turns = createRenderTurns(0);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let running = 0;
    let most = 0;
    const render = async () => {
      most = Math.max(most, ++running);
      await held;
      running--;
      return 'done';
    };
    const accepted = Array.from({ length: 1 + RENDER_QUEUE_BOUND }, () => turns.take('a', render));
    const over = await turns.take('a', render).catch((e: unknown) => e);
    expect((over as HttpError).status).toBe(429);
    expect((over as HttpError).body).toEqual({ statusCode: '429', code: 'InvalidRequest', error: 'InvalidRequest', message: 'Too many requests' });
    release();
    expect(await Promise.all(accepted)).toEqual(accepted.map(() => 'done'));
    expect(most).toBe(1);
  });
});
