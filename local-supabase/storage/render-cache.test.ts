// The render cache stays within its bound (least recently used out first), shares one rendering
// between concurrent requests for a key, and keeps its files across a restart.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RenderCache } from './render-cache.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'render-cache-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const key = (n: number) => n.toString(16).padStart(64, '0');
const maker = (bytes: number, counter?: { n: number }) => async (file: string) => {
  if (counter) counter.n++;
  await writeFile(file, Buffer.alloc(bytes, 7));
  return 'webp';
};

describe('RenderCache', () => {
  it('evicts the least recently used results past its bound', async () => {
    const dir = tempDir();
    const cache = new RenderCache(dir, 250);
    await cache.get(key(1), maker(100));
    await cache.get(key(2), maker(100));
    expect((await cache.get(key(1), maker(100))).hit).toBe(true); // 1 is now the most recent
    await cache.get(key(3), maker(100)); // 300 > 250: 2 goes
    expect(cache.bytes).toBe(200);
    expect(readdirSync(dir).sort()).toEqual([`${key(1)}.webp`, `${key(3)}.webp`]);
    const counter = { n: 0 };
    expect((await cache.get(key(2), maker(100, counter))).hit).toBe(false);
    expect(counter.n).toBe(1);
  });

  it('renders once for concurrent requests of one key', async () => {
    const cache = new RenderCache(tempDir(), 1000);
    const counter = { n: 0 };
    const results = await Promise.all([1, 2, 3].map(() => cache.get(key(9), maker(10, counter))));
    expect(counter.n).toBe(1);
    expect(results.every((r) => r.body.length === 10 && r.format === 'webp')).toBe(true);
  });

  it('keeps finished results across a restart and drops unfinished writes', async () => {
    const dir = tempDir();
    await new RenderCache(dir, 1000).get(key(5), maker(10));
    writeFileSync(path.join(dir, 'tmp-unfinished'), 'x');
    const again = new RenderCache(dir, 1000);
    expect(readdirSync(dir)).toEqual([`${key(5)}.webp`]);
    expect((await again.get(key(5), maker(10))).hit).toBe(true);
  });

  it('a failed rendering leaves nothing behind and is tried again next time', async () => {
    const dir = tempDir();
    const cache = new RenderCache(dir, 1000);
    await expect(cache.get(key(6), async () => Promise.reject(new Error('falhou')))).rejects.toThrow('falhou');
    expect(readdirSync(dir)).toEqual([]);
    expect((await cache.get(key(6), maker(10))).hit).toBe(false);
  });
});
