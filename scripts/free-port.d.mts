/** A free TCP port on 127.0.0.1 (scripts/free-port.mjs). */
export function freePort(): Promise<number>;
