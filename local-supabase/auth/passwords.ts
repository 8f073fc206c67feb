// bcrypt password hashes, compatible with GoTrue's ($2a/$2b, cost 10) and pgcrypto's crypt(.., gen_salt('bf')).
import bcrypt from 'bcryptjs';

const COST = 10;
// Compared against when the account does not exist, so a wrong email costs as long as a wrong password.
const DUMMY_HASH = bcrypt.hashSync('local-supabase-dummy-password', COST);

/** Async so a hash does not block the event loop (and never runs while holding a transaction). */
export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, COST);
}

export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash || !/^\$2[aby]\$\d\d\$/.test(hash)) {
    await bcrypt.compare(password, DUMMY_HASH);
    return false;
  }
  return bcrypt.compare(password, hash);
}
