// The rewrite that lets PGlite's modules link against a shared memory changes the memory import's
// limits and nothing else, in both forms emscripten writes them (with and without a maximum).
import { describe, expect, it } from 'vitest';
import { MAX_PAGES, shareMemoryImport } from './pglite-shared-memory.ts';

const name = (s: string) => [s.length, ...Buffer.from(s)];
const section = (id: number, content: number[]) => {
  const size: number[] = [];
  let n = content.length;
  do {
    size.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
    n >>= 7;
  } while (n > 0);
  return [id, ...size, ...content];
};
/** A module importing a function, then `env.memory` with `limits`, and exporting the memory as "mem". */
function moduleBytes(limits: number[], moduleName = 'env'): Uint8Array<ArrayBuffer> {
  const type = section(1, [1, 0x60, 0, 0]); // one type: () -> ()
  const imports = section(2, [2, ...name(moduleName), ...name('f'), 0, 0, ...name(moduleName), ...name('memory'), 2, ...limits]);
  const exports = section(7, [1, ...name('mem'), 2, 0]);
  return new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...type, ...imports, ...exports]);
}
const sharedMemory = () => new WebAssembly.Memory({ initial: 1, maximum: 10, shared: true });
const link = (bytes: Uint8Array<ArrayBuffer>, modName = 'env') => {
  const memory = sharedMemory();
  const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), { [modName]: { f: () => {}, memory } });
  return instance.exports.mem === memory;
};

describe('shareMemoryImport', () => {
  it('declares shared a memory import with a maximum (pglite.wasm)', () => {
    const original = moduleBytes([1, 1, 20]);
    expect(() => link(original)).toThrow(WebAssembly.LinkError);
    const patched = shareMemoryImport(original) as Uint8Array<ArrayBuffer>;
    expect(patched.length).toBe(original.length);
    expect(link(patched)).toBe(true);
    expect(() => link(original)).toThrow(WebAssembly.LinkError); // the input is left as it was
  });

  it('adds the maximum a shared memory needs when there is none (side modules: plpgsql.so, pgcrypto.so), re-sizing the section', () => {
    // A long module name takes the import section past 127 bytes once the maximum is added.
    const long = 'm'.repeat(54);
    const original = moduleBytes([0, 1], long);
    expect(() => link(original, long)).toThrow(WebAssembly.LinkError);
    const patched = shareMemoryImport(original) as Uint8Array<ArrayBuffer>;
    expect(patched.length).toBe(original.length + 4); // the 3 bytes of 65536 pages, 1 more of section size
    expect(link(patched, long)).toBe(true);
    expect(WebAssembly.Module.imports(new WebAssembly.Module(patched)).map((i) => i.kind)).toEqual(['function', 'memory']);
    expect(MAX_PAGES).toBe(65536);
  });

  it('leaves alone a module without a memory import, or with a shared one', () => {
    const none = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...section(1, [1, 0x60, 0, 0])]);
    expect(shareMemoryImport(none)).toBe(none);
    const shared = moduleBytes([3, 1, 20]);
    expect(shareMemoryImport(shared)).toBe(shared);
  });
});
