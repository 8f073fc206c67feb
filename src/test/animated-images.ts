// Animated images whose frames are one pixel each on a large screen: a few bytes a frame, but every
// frame is a whole screen once decoded (issue 37: a 1.4 KB GIF avatar of 60 frames of 2048×2048, 252
// megapixels). Written byte by byte, so the unit tests (the SPA's checks) and the integration tests
// (Storage's render route) use the same files.

/** An animated GIF: a size×size screen, `frames` frames of one pixel at 0,0, alternately black and white. */
export function gifOfScreens(size: number, frames: number): Uint8Array<ArrayBuffer> {
  const u16 = (n: number) => [n & 0xff, n >> 8];
  const frame = (i: number) => [
    ...[0x21, 0xf9, 4, 0, 10, 0, 0, 0], // graphic control: 0.1 s
    ...[0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0], // a 1×1 image at 0,0, no colour table of its own
    ...[2, 2, i % 2 ? 0x4c : 0x44, 0x01, 0], // its LZW data: clear, colour 1 or 0 (frames differ), end
  ];
  return new Uint8Array([
    ...ascii('GIF89a'),
    ...u16(size), ...u16(size), 0x80, 0, 0, // the screen, with a 2-colour table:
    ...[0, 0, 0, 255, 255, 255],
    ...[0x21, 0xff, 11, ...ascii('NETSCAPE2.0'), 3, 1, 0, 0], 0, // loop forever
    ...Array.from({ length: frames }, (_, i) => frame(i)).flat(),
    0x3b,
  ]);
}

/** An animated WebP: a size×size canvas, `frames` frames of one black pixel at 0,0. */
export function webpOfScreens(size: number, frames: number): Uint8Array<ArrayBuffer> {
  const u24 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff];
  const chunk = (tag: string, data: number[]) => [...ascii(tag), ...u32(data.length), ...data, ...(data.length % 2 ? [0] : [])];
  // A lossless 1×1 black picture (its VP8L bitstream, as sharp writes it).
  const pixel = chunk('VP8L', [0x2f, 0x00, 0x00, 0x00, 0x00, 0x07, 0x10, 0x11, 0xfd, 0x0f, 0x44, 0x44, 0xff, 0x03]);
  // Where, how big and how long: x/2, y/2, width-1, height-1, 100 ms, no blending flags.
  const frame = chunk('ANMF', [...u24(0), ...u24(0), ...u24(0), ...u24(0), ...u24(100), 0, ...pixel]);
  return new Uint8Array(
    chunk('RIFF', [
      ...ascii('WEBP'),
      ...chunk('VP8X', [0x02, 0, 0, 0, ...u24(size - 1), ...u24(size - 1)]), // animated, the canvas
      ...chunk('ANIM', [0, 0, 0, 0, 0, 0]), // background, loop forever
      ...Array.from({ length: frames }, () => frame).flat(),
    ]),
  );
}

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));
const u32 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24];
