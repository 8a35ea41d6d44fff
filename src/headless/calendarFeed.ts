import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { SecretBox } from '../core/secrets';

/** The name of the calendar's secret in the `secrets` table. */
export const CALENDAR_SECRET = 'calendar_feed';

/** Where the secret is kept: the `secrets` table's ciphertexts (RequestsRepo). */
export interface SecretRows {
  getSecret(name: string): Promise<Buffer | null>;
  setSecret(name: string, ciphertext: Buffer, now: number): Promise<void>;
}

/**
 * The secret of the headless shell's calendar subscription (docs/architecture.md "The buyer's desk"). A calendar
 * app keeps the address it was given and asks for it for months, so the secret is not the page's per-run token
 * (which opens every method and changes at each start): it is a random 192-bit text of its own, kept encrypted in
 * the data folder's `secrets` table like the API key, that opens `/calendar.ics` and nothing else. Made on first
 * use; replaced only when the buyer asks for a new address.
 */
export class CalendarFeed {
  private secret: string | undefined;

  constructor(
    private readonly d: {
      rows: SecretRows;
      box: SecretBox;
      /** ms since the epoch, for the row's updated_at. */
      now: () => number;
      /** Told when a stored secret could not be decrypted (a replaced key file) and a new one was made. */
      onLost?: (error: Error) => void;
    },
  ) {}

  /**
   * Reads the stored secret, or makes and stores one on first use; call once before `current` (the store answers with
   * promises). A stored one that cannot be decrypted (the key file was replaced) is replaced: its address could not
   * be checked anyway.
   * @throws what the database or the secret box throws when storing a new one.
   */
  async load(): Promise<string> {
    if (this.secret !== undefined) return this.secret;
    const stored = await this.d.rows.getSecret(CALENDAR_SECRET);
    if (stored) {
      try {
        this.secret = this.d.box.decrypt(stored);
        return this.secret;
      } catch (e) {
        this.d.onLost?.(e as Error);
      }
    }
    return this.renew();
  }

  /**
   * The current secret (URL-safe base64, 32 characters), as `load` read or made it.
   * @throws Error when `load` has not finished (a fault of the shell's start order).
   */
  current(): string {
    if (this.secret === undefined)
      throw new Error('The calendar secret is read at start (CalendarFeed.load).');
    return this.secret;
  }

  /**
   * Makes and stores a new secret; the old one opens nothing from now on.
   * @throws what the database or the secret box throws (the old secret then stays).
   */
  async renew(): Promise<string> {
    const next = randomBytes(24).toString('base64url');
    await this.d.rows.setSecret(CALENDAR_SECRET, this.d.box.encrypt(next), this.d.now());
    this.secret = next;
    return next;
  }

  /** True when `given` is the current secret (compared in constant time). Throws nothing: false on any failure. */
  opens(given: string): boolean {
    let secret: string;
    try {
      secret = this.current();
    } catch {
      return false;
    }
    const a = Buffer.from(given);
    const b = Buffer.from(secret);
    return a.length === b.length && timingSafeEqual(a, b);
  }
}
