// A free TCP port on 127.0.0.1, for a server a script or a test is about to start. Plain JS so that
// scripts/test.mjs (run by node without a TypeScript loader) and the TypeScript benches and specs share it.
import net from 'node:net';

/** @returns {Promise<number>} */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
