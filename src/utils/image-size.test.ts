// The header reader agrees with libvips (sharp, what Storage's render route decodes with) on real
// files of each type, static and animated, and on the animated images that are a few bytes a frame.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { gifOfScreens, webpOfScreens } from '@/test/animated-images';
import { imageSize } from './image-size';

/** What libvips reads: frame width, frame height, frames. */
async function decoded(bytes: Uint8Array) {
  const meta = await sharp(bytes, { animated: true }).metadata();
  return { width: meta.width, height: meta.pageHeight ?? meta.height, frames: meta.pages ?? 1 };
}

function picture(width: number, height: number, frames = 1) {
  const raw = Buffer.alloc(width * height * frames * 3);
  for (let f = 0; f < frames; f++) raw.fill(f * 30, f * width * height * 3, (f + 1) * width * height * 3);
  return sharp(raw, { raw: { width, height: height * frames, channels: 3, pageHeight: height } });
}

describe('imageSize', () => {
  it.each([
    ['JPEG', () => picture(1201, 803).jpeg().toBuffer()],
    ['progressive JPEG', () => picture(640, 480).jpeg({ progressive: true }).toBuffer()],
    ['PNG', () => picture(3000, 17).png().toBuffer()],
    ['lossy WebP', () => picture(333, 222).webp().toBuffer()],
    ['lossless WebP', () => picture(333, 222).webp({ lossless: true }).toBuffer()],
    ['WebP with alpha (VP8X)', () => sharp({ create: { width: 90, height: 45, channels: 4, background: '#0000' } }).webp().toBuffer()],
    ['GIF', () => picture(120, 80).gif().toBuffer()],
    ['animated GIF', () => picture(64, 48, 7).gif().toBuffer()],
    ['animated WebP', () => picture(64, 48, 7).webp().toBuffer()],
    ['60 frames of 2048×2048 in 1.4 KB (GIF)', async () => gifOfScreens(2048, 60)],
    ['60 frames of 2048×2048 in 2.8 KB (WebP)', async () => webpOfScreens(2048, 60)],
  ])('%s: the size libvips decodes', async (_label, make) => {
    const bytes = new Uint8Array(await make());
    expect(imageSize(bytes)).toEqual(await decoded(bytes));
  });

  it('answers null for what it does not read', () => {
    expect(imageSize(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(imageSize(new Uint8Array([0x25, 0x50, 0x44, 0x46]))).toBeNull();
    expect(imageSize(new Uint8Array(0))).toBeNull();
  });
});
