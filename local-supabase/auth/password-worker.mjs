// The bcrypt thread of passwords.ts. Checking a password costs milliseconds of CPU (bcryptjs: ~4 ms at
// pgcrypto's cost 6, ~55 ms at GoTrue's cost 10); done here, a burst of sign-ins (a class arriving at
// once) does not hold up the pages the server answers meanwhile. Plain JavaScript: a worker thread
// starts without the tsx loader.
import { parentPort } from 'node:worker_threads';
import bcrypt from 'bcryptjs';

parentPort.on('message', ({ id, op, password, hash, cost }) => {
  try {
    const result = op === 'hash' ? bcrypt.hashSync(password, cost) : bcrypt.compareSync(password, hash);
    parentPort.postMessage({ id, result });
  } catch (e) {
    parentPort.postMessage({ id, error: e instanceof Error ? e.message : String(e) });
  }
});
