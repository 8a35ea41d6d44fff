import type { Clock } from './clock';
import type { Store } from './db/store';
import { BadInputError } from './errors';
import type { Logger } from './log';
import type { SecretBox } from './secrets';
import { serviceOrigin } from '../shared/serviceUrl';

const KEY_SECRET = 'api_key';
/** The origin (scheme://host:port) the key was entered for; encrypted like the key, so it cannot be swapped. */
const KEY_ORIGIN_SECRET = 'api_key_origin';

/**
 * The buyer's API key (docs/architecture.md "The key never leaves core"). It lives encrypted in the store; its plain
 * text only in this object (read once at start by `load`), never in a log or the renderer. It is bound to the origin
 * it was entered for: a service URL on another origin does not get it (a changed URL must not carry the buyer's key
 * to a host they never gave it to), and the same origin again uses it again.
 */
export class ApiKeyStore {
  private key: string | null = null;
  private origin: string | null = null;

  /** Nothing is read yet: `load` reads the stored key, once, before anything asks for it. */
  constructor(
    private readonly d: {
      store: Pick<Store, 'requests' | 'transaction'>;
      secrets: SecretBox;
      clock: Clock;
      log: Logger;
      serviceUrl: () => string;
    },
  ) {}

  /**
   * Reads the stored key and its origin into memory (core calls it once at start, before the service client is
   * built; the getters below answer from what it read). A key stored before keys were bound has only ever gone to
   * the current service URL (`serviceUrl()`): it is bound there, once. A key whose origin cannot be read is sent
   * nowhere, and a key that cannot be read at all is no key; both are logged, never thrown.
   */
  async load(): Promise<void> {
    const d = this.d;
    try {
      const c = await d.store.requests.getSecret(KEY_SECRET);
      this.key = c ? d.secrets.decrypt(c) : null;
      const o = this.key === null ? null : await d.store.requests.getSecret(KEY_ORIGIN_SECRET);
      this.origin = o ? d.secrets.decrypt(o) : null;
      if (this.key !== null && this.origin === null) {
        this.origin = serviceOrigin(d.serviceUrl());
        if (this.origin)
          await d.store.requests.setSecret(KEY_ORIGIN_SECRET, d.secrets.encrypt(this.origin), d.clock.now());
      }
    } catch (e) {
      d.log.warn('the stored API key could not be read; set it again', { error: (e as Error).message });
    }
  }

  /** The key, when it was entered for `url`'s origin; else undefined (nothing is sent). */
  keyFor(url: string): string | undefined {
    return this.key !== null && this.origin !== null && this.origin === serviceOrigin(url)
      ? this.key
      : undefined;
  }

  /** The origin a stored key was entered for when it is not `url`'s (Settings says where it belongs); else null. */
  storedForOther(url: string): string | null {
    return this.key !== null && this.keyFor(url) === undefined ? this.origin : null;
  }

  /**
   * Stores `key` bound to the current service URL's origin (the key and its origin together, or neither), or
   * forgets the key when null. The key in memory changes once the store has it.
   * @throws BadInputError when the service URL in Settings is not valid (nothing is stored); the store's error when
   *   the write fails (the key in memory is unchanged).
   */
  async set(key: string | null): Promise<void> {
    const store = this.d.store;
    if (key === null) {
      await store.requests.deleteSecret(KEY_SECRET);
      await store.requests.deleteSecret(KEY_ORIGIN_SECRET);
      this.origin = null;
    } else {
      const origin = serviceOrigin(this.d.serviceUrl());
      if (!origin)
        throw new BadInputError(
          'The service URL in Settings is not valid: correct it, then save the key again.',
        );
      const now = this.d.clock.now();
      const keyCipher = this.d.secrets.encrypt(key);
      const originCipher = this.d.secrets.encrypt(origin);
      await store.transaction(async () => {
        await store.requests.setSecret(KEY_SECRET, keyCipher, now);
        await store.requests.setSecret(KEY_ORIGIN_SECRET, originCipher, now);
      });
      this.origin = origin;
    }
    this.key = key;
  }
}
