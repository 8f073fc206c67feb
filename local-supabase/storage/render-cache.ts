// The results of image transformations, on disk under <storage>/render-cache, so that a second
// request for the same variant of the same object version costs one file read. Bounded: the least
// recently used files go first once the total passes maxBytes. Keys name an object version (a
// server-made UUID that changes on every write), so a replaced image never meets an old result.
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';

interface CachedRender {
  file: string;
  /** Output format, as sharp names it (jpeg, png, webp, gif, avif, tiff). */
  format: string;
  size: number;
}

export interface RenderResult {
  body: Buffer;
  format: string;
  /** Served from the cache (no image work). */
  hit: boolean;
}

const ENTRY = /^([0-9a-f]{64})\.(jpeg|png|webp|gif|avif|tiff)$/;

export class RenderCache {
  private readonly entries = new Map<string, CachedRender>(); // in use order: oldest first
  private readonly pending = new Map<string, Promise<{ body: Buffer; format: string }>>();
  private total = 0;

  constructor(
    readonly dir: string,
    private readonly maxBytes: number,
  ) {
    mkdirSync(dir, { recursive: true });
    // What a previous run left: kept (oldest first), except unfinished writes.
    const found: { key: string; entry: CachedRender; mtime: number }[] = [];
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      const m = ENTRY.exec(name);
      if (!m) {
        rmSync(file, { force: true, recursive: true });
        continue;
      }
      const st = statSync(file);
      found.push({ key: m[1]!, entry: { file, format: m[2]!, size: st.size }, mtime: st.mtimeMs });
    }
    found.sort((a, b) => a.mtime - b.mtime);
    for (const f of found) this.remember(f.key, f.entry);
    void this.evict();
  }

  get bytes(): number {
    return this.total;
  }

  /**
   * The cached result for key, or the one `make` writes (to the temp path it is given, in the format
   * it returns). Concurrent requests for the same key share one rendering.
   */
  async get(key: string, make: (tempFile: string) => Promise<string>): Promise<RenderResult> {
    const cached = this.entries.get(key);
    if (cached) {
      try {
        const body = await readFile(cached.file);
        this.entries.delete(key); // most recently used goes last
        this.entries.set(key, cached);
        return { body, format: cached.format, hit: true };
      } catch {
        this.forget(key, cached); // removed under us: render again
      }
    }
    let job = this.pending.get(key);
    if (!job) {
      job = this.write(key, make).finally(() => this.pending.delete(key));
      this.pending.set(key, job);
    }
    return { ...(await job), hit: false };
  }

  private async write(key: string, make: (tempFile: string) => Promise<string>): Promise<{ body: Buffer; format: string }> {
    const temp = path.join(this.dir, `tmp-${randomUUID()}`);
    try {
      const format = await make(temp);
      const body = await readFile(temp);
      const file = path.join(this.dir, `${key}.${format}`);
      await rename(temp, file);
      this.remember(key, { file, format, size: body.length });
      await this.evict();
      return { body, format };
    } catch (e) {
      await unlink(temp).catch(() => {});
      throw e;
    }
  }

  private remember(key: string, entry: CachedRender): void {
    const old = this.entries.get(key);
    if (old) this.forget(key, old);
    this.entries.set(key, entry);
    this.total += entry.size;
  }

  private forget(key: string, entry: CachedRender): void {
    if (this.entries.get(key) !== entry) return;
    this.entries.delete(key);
    this.total -= entry.size;
  }

  /** Drops the least recently used results until the total fits (a result larger than the bound is not kept). */
  private async evict(): Promise<void> {
    for (const [key, entry] of this.entries) {
      if (this.total <= this.maxBytes) break;
      this.forget(key, entry);
      await unlink(entry.file).catch(() => {});
    }
  }
}
