/**
 * Password hashing in DeerFlow's versioned format, so a database migrated from
 * DeerFlow keeps its logins:
 *
 * - `$dfv2$<bcrypt>` (written): bcrypt over base64(SHA-256(password)), so every
 *   byte of a long password counts (bcrypt alone reads only the first 72);
 * - `$dfv1$<bcrypt>` and a bare bcrypt hash (read only): bcrypt over the
 *   password itself; a successful login rehashes them.
 *
 * bcryptjs is pure JavaScript: its async calls yield to the event loop between
 * rounds, so a login does not stall other requests.
 */
import { createHash, randomBytes } from "node:crypto";
import bcrypt from "bcryptjs";

/** Prefix of the current hash format. */
export const PASSWORD_HASH_V2 = "$dfv2$";
/** Prefix of DeerFlow's first format (plain bcrypt). */
export const PASSWORD_HASH_V1 = "$dfv1$";
/** Default bcrypt cost (DeerFlow's `gensalt()` default). */
export const DEFAULT_BCRYPT_COST = 12;

/** The outcome of {@link PasswordHasher.verify}. */
export interface PasswordCheck {
  /** The password matches the hash. */
  readonly ok: boolean;
  /** The hash is of an older format: store a new one now that the password is known. */
  readonly needsRehash: boolean;
}

function preHash(password: string): string {
  return createHash("sha256").update(password, "utf8").digest("base64");
}

/** Hashes and verifies passwords (see the module comment). */
export class PasswordHasher {
  readonly #cost: number;
  #dummy: Promise<string> | undefined;

  /**
   * @param options - `cost`: bcrypt's log2 rounds, 4..31 (default 12; tests use 4).
   */
  constructor(options: { readonly cost?: number } = {}) {
    const cost = options.cost ?? DEFAULT_BCRYPT_COST;
    if (!Number.isInteger(cost) || cost < 4 || cost > 31)
      throw new RangeError(`bcrypt cost must be 4..31, got ${cost}`);
    this.#cost = cost;
  }

  /** @returns a `$dfv2$` hash of `password`. */
  async hash(password: string): Promise<string> {
    return PASSWORD_HASH_V2 + (await bcrypt.hash(preHash(password), this.#cost));
  }

  /**
   * @param password - the password given.
   * @param stored - the stored hash, in any of the three formats.
   * @returns whether it matches and whether the hash should be replaced. A
   *   malformed hash does not match (never throws).
   */
  async verify(password: string, stored: string): Promise<PasswordCheck> {
    try {
      if (stored.startsWith(PASSWORD_HASH_V2)) {
        return {
          ok: await bcrypt.compare(preHash(password), stored.slice(PASSWORD_HASH_V2.length)),
          needsRehash: false,
        };
      }
      const bare = stored.startsWith(PASSWORD_HASH_V1) ? stored.slice(PASSWORD_HASH_V1.length) : stored;
      if (!/^\$2[abxy]?\$\d{2}\$[./A-Za-z0-9]{53}$/.test(bare)) return { ok: false, needsRehash: false };
      const ok = await bcrypt.compare(password, bare);
      return { ok, needsRehash: ok };
    } catch {
      return { ok: false, needsRehash: false };
    }
  }

  /**
   * Spends the time of one verification against a hash no password matches,
   * so a login for an unknown email takes as long as one with a wrong password.
   */
  async verifyDummy(password: string): Promise<void> {
    this.#dummy ??= this.hash(randomBytes(32).toString("base64"));
    await this.verify(password, await this.#dummy);
  }
}
