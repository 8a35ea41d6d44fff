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
 * text only in this object, never in a log or the renderer. It is bound to the origin it was entered for: a service
 * URL on another origin does not get it (a changed URL must not carry the buyer's key to a host they never gave it
 * to), and the same origin again uses it again.
 */
export class ApiKeyStore {
  private key: string | null = null;
  private origin: string | null = null;

  /**
   * Reads the stored key and its origin. A key stored before keys were bound has only ever gone to the current
   * service URL (`serviceUrl()`): it is bound there, once. A key whose origin cannot be read is sent nowhere (logged).
   */
  constructor(
    private readonly d: {
      store: Store;
      secrets: SecretBox;
      clock: Clock;
      log: Logger;
      serviceUrl: () => string;
    },
  ) {
    try {
      const c = d.store.requests.getSecret(KEY_SECRET);
      this.key = c ? d.secrets.decrypt(c) : null;
      const o = this.key === null ? null : d.store.requests.getSecret(KEY_ORIGIN_SECRET);
      this.origin = o ? d.secrets.decrypt(o) : null;
      if (this.key !== null && this.origin === null) {
        this.origin = serviceOrigin(d.serviceUrl());
        if (this.origin)
          d.store.requests.setSecret(KEY_ORIGIN_SECRET, d.secrets.encrypt(this.origin), d.clock.now());
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
   * forgets the key when null.
   * @throws BadInputError when the service URL in Settings is not valid (nothing is stored).
   */
  set(key: string | null): void {
    if (key === null) {
      this.d.store.requests.deleteSecret(KEY_SECRET);
      this.d.store.requests.deleteSecret(KEY_ORIGIN_SECRET);
      this.origin = null;
    } else {
      const origin = serviceOrigin(this.d.serviceUrl());
      if (!origin)
        throw new BadInputError(
          'The service URL in Settings is not valid: correct it, then save the key again.',
        );
      const now = this.d.clock.now();
      this.d.store.transaction(() => {
        this.d.store.requests.setSecret(KEY_SECRET, this.d.secrets.encrypt(key), now);
        this.d.store.requests.setSecret(KEY_ORIGIN_SECRET, this.d.secrets.encrypt(origin), now);
      });
      this.origin = origin;
    }
    this.key = key;
  }
}
