import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;

let pool = Buffer.alloc(0);
let offset = 0;

/**
 * `size` bytes from the system's CSPRNG, each handed out once. They are drawn 4 KB at a time:
 * `crypto.randomBytes` makes one system call per token, which was 7 % of a session's issue on
 * this VM (Node's `randomUUID` pools the same way).
 */
export const secureRandomBytes = (size: number): Buffer => {
  if (size > POOL_BYTES) return randomFillSync(Buffer.alloc(size));
  if (offset + size > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_BYTES));
    offset = 0;
  }
  const bytes = Buffer.from(pool.subarray(offset, offset + size));
  // Nothing handed out stays readable in the pool.
  pool.fill(0, offset, offset + size);
  offset += size;
  return bytes;
};
