// The pixel size of an image file read from its header, without decoding it: what Storage's image
// transformations will decode (width × height of each frame, and the frames of an animated GIF or
// WebP). A few bytes can describe a huge image: a 1.4 KB GIF can hold 60 frames of 2048×2048.
// JPEG, PNG, GIF and WebP, the types our buckets take; anything else answers null.

export interface ImageSize {
  width: number;
  height: number;
  /** Frames of an animated GIF or WebP; 1 for anything else (a PNG is rendered from its first image). */
  frames: number;
}

const ascii = (b: Uint8Array, at: number, text: string) => [...text].every((c, i) => b[at + i] === c.charCodeAt(0));
const u16le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u24le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
const u32le = (b: Uint8Array, at: number) => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
const u32be = (b: Uint8Array, at: number) => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;

/** The size of the image in `bytes`, or null when it is not a JPEG, PNG, GIF or WebP we can read. */
export function imageSize(bytes: Uint8Array): ImageSize | null {
  if (bytes.length >= 24 && ascii(bytes, 1, 'PNG') && ascii(bytes, 12, 'IHDR')) {
    return { width: u32be(bytes, 16), height: u32be(bytes, 20), frames: 1 };
  }
  if (bytes.length >= 13 && (ascii(bytes, 0, 'GIF87a') || ascii(bytes, 0, 'GIF89a'))) return gifSize(bytes);
  if (bytes.length >= 30 && ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP')) return webpSize(bytes);
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes);
  return null;
}

/** Every frame is decoded onto the whole screen (grown to fit a frame past its edge). */
function gifSize(b: Uint8Array): ImageSize | null {
  let width = u16le(b, 6);
  let height = u16le(b, 8);
  let frames = 0;
  const table = (flags: number) => (flags & 0x80 ? 3 * 2 ** ((flags & 7) + 1) : 0);
  /** The end of the data sub-blocks starting at `at`. */
  const skipBlocks = (at: number) => {
    while (at < b.length && b[at] !== 0) at += b[at]! + 1;
    return at + 1;
  };
  let at = 13 + table(b[10]!);
  while (at < b.length) {
    const block = b[at];
    if (block === 0x2c && at + 10 <= b.length) {
      frames++;
      width = Math.max(width, u16le(b, at + 1) + u16le(b, at + 5));
      height = Math.max(height, u16le(b, at + 3) + u16le(b, at + 7));
      at = skipBlocks(at + 10 + table(b[at + 9]!) + 1); // descriptor, colour table, LZW code size, data
    } else if (block === 0x21) {
      at = skipBlocks(at + 2);
    } else {
      break; // the trailer (0x3b), or a damaged file: what was read so far
    }
  }
  return width && height ? { width, height, frames: Math.max(frames, 1) } : null;
}

function webpSize(b: Uint8Array): ImageSize | null {
  const first = 12;
  const data = first + 8;
  if (ascii(b, first, 'VP8X')) {
    const size = { width: u24le(b, data + 4) + 1, height: u24le(b, data + 7) + 1, frames: 1 };
    if (b[data]! & 0x02) {
      // Animated: count the ANMF chunks.
      size.frames = 0;
      for (let at = first; at + 8 <= b.length; at += 8 + u32le(b, at + 4) + (u32le(b, at + 4) % 2)) {
        if (ascii(b, at, 'ANMF')) size.frames++;
      }
      size.frames = Math.max(size.frames, 1);
    }
    return size;
  }
  if (ascii(b, first, 'VP8 ')) return { width: u16le(b, data + 6) & 0x3fff, height: u16le(b, data + 8) & 0x3fff, frames: 1 };
  if (ascii(b, first, 'VP8L')) {
    const bits = u32le(b, data + 1);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1, frames: 1 };
  }
  return null;
}

/** The first start-of-frame marker (SOF0-SOF15, but DHT, JPG and DAC) names the size. */
function jpegSize(b: Uint8Array): ImageSize | null {
  let at = 2;
  while (at + 9 <= b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: u16be(b, at + 7), height: u16be(b, at + 5), frames: 1 };
    }
    at += 2 + u16be(b, at + 2);
  }
  return null;
}
