// PGlite's WebAssembly memory made SHARED, so another thread can write into it while a query runs.
// That is how a statement is cancelled (pglite.ts): the server's thread sets Postgres's own
// QueryCancelPending and InterruptPending flags and the next CHECK_FOR_INTERRUPTS cancels the
// statement cleanly, as a SIGINT from a timer does on PostgreSQL. PGlite's modules (pglite.wasm,
// initdb.wasm, and the extensions it links in later: plpgsql.so, pgcrypto.so) import a memory that is
// not shared, and a module may only import a shared memory if it declares it shared: the limits of
// that one import are rewritten here (the "shared" bit, and a maximum when there is none, which a
// shared memory must have). Nothing else in a module changes.

/** The largest memory of 32-bit WebAssembly, in 64 KiB pages. */
export const MAX_PAGES = 65536;

/** Reads an unsigned LEB128 number at `at`: [value, position after it]. */
function readLeb(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  let shift = 0;
  let byte: number;
  do {
    byte = bytes[at++]!;
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [value, at];
}

function leb(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return out;
}

const skipName = (bytes: Uint8Array, at: number) => {
  const [length, start] = readLeb(bytes, at);
  return start + length;
};

/**
 * The module `wasm` with its imported memory declared shared (a new array), or `wasm` itself when it
 * imports no memory or already a shared one.
 */
export function shareMemoryImport(wasm: Uint8Array): Uint8Array<ArrayBuffer> | Uint8Array {
  let at = 8; // magic and version
  while (at < wasm.length) {
    const sectionStart = at;
    const id = wasm[at]!;
    const [size, contentStart] = readLeb(wasm, at + 1);
    at = contentStart;
    const end = contentStart + size;
    if (id === 2) {
      let count: number;
      [count, at] = readLeb(wasm, at);
      for (let i = 0; i < count; i++) {
        at = skipName(wasm, at); // module
        at = skipName(wasm, at); // field
        const kind = wasm[at++];
        if (kind === 0) [, at] = readLeb(wasm, at); // function: type index
        else if (kind === 1) {
          at++; // table: element type, then limits
          const flags = wasm[at++]!;
          [, at] = readLeb(wasm, at);
          if (flags & 1) [, at] = readLeb(wasm, at);
        } else if (kind === 2) {
          const flags = wasm[at]!;
          if (flags & 2) return wasm; // shared already
          const [, afterMin] = readLeb(wasm, at + 1);
          if (flags & 1) {
            const bytes = new Uint8Array(wasm);
            bytes[at] = flags | 2;
            return bytes;
          }
          // No maximum: flags 0 → 3 and the maximum after the minimum; the section grows.
          const added = leb(MAX_PAGES);
          const content = [...wasm.subarray(contentStart, at), flags | 3, ...wasm.subarray(at + 1, afterMin), ...added, ...wasm.subarray(afterMin, end)];
          const bytes = new Uint8Array(wasm.length + added.length + 8);
          let out = 0;
          for (const part of [wasm.subarray(0, sectionStart), [2, ...leb(content.length)], content, wasm.subarray(end)]) {
            bytes.set(part, out);
            out += part.length;
          }
          return bytes.slice(0, out);
        } else if (kind === 3) at += 2; // global: value type, mutability
        else if (kind === 4) [, at] = readLeb(wasm, at + 1); // tag: attribute, type index
        else throw new Error(`WebAssembly module: unknown import kind ${kind}`);
      }
      return wasm;
    }
    at = end;
  }
  return wasm;
}
