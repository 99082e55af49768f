import { Injectable } from '@nestjs/common';
import { hash, verify } from '@node-rs/argon2';

/** The library's const enum value for argon2id (const enums cannot be imported under isolatedModules). */
const ARGON2ID = 2;

/**
 * argon2id with the library's defaults (19 MiB, 2 passes: OWASP's minimum). Verifying a user
 * without a password, or an unknown email, verifies against a fixed hash all the same, so the
 * time taken tells nothing about the account.
 */
@Injectable()
export class PasswordHasher {
  private decoy: Promise<string> | undefined;

  hash(password: string): Promise<string> {
    return hash(password, { algorithm: ARGON2ID });
  }

  async verify(passwordHash: string | null, password: string): Promise<boolean> {
    if (passwordHash === null) {
      this.decoy ??= this.hash('a password nobody has: only its cost matters');
      await verify(await this.decoy, password);
      return false;
    }
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  }
}
