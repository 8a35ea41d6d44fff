import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { LotwatchError } from './errors';

/**
 * Encrypts secrets (the API key) at rest. In Electron this is `safeStorage`; in the headless shell a key
 * file readable by the user only (`FileSecretBox`). Core stores ciphertext only.
 */
export interface SecretBox {
  /** What protects the secret, in words the Settings page shows (e.g. "the system keychain"). */
  readonly description: string;
  /** Encrypts UTF-8 text. Throws `LotwatchError('internal')` when encryption is unavailable. */
  encrypt(plain: string): Buffer;
  /** Decrypts what `encrypt` returned. Throws `LotwatchError('internal')` on a wrong or damaged box. */
  decrypt(cipher: Buffer): string;
}

/**
 * AES-256-GCM with a random 32-byte key kept in `keyFile` (mode 0600, created on first use).
 * Layout of a ciphertext: 12-byte IV, 16-byte tag, then the encrypted bytes.
 */
export class FileSecretBox implements SecretBox {
  readonly description: string;
  private key: Buffer | undefined;

  constructor(private readonly keyFile: string) {
    this.description = `a key file readable only by your user account (${keyFile})`;
  }

  private loadKey(): Buffer {
    if (this.key) return this.key;
    if (existsSync(this.keyFile)) {
      const k = readFileSync(this.keyFile);
      if (k.length !== 32) throw new LotwatchError('internal', `The key file ${this.keyFile} is damaged.`);
      this.key = k;
    } else {
      const k = randomBytes(32);
      writeFileSync(this.keyFile, k, { mode: 0o600, flag: 'wx' });
      chmodSync(this.keyFile, 0o600);
      this.key = k;
    }
    return this.key;
  }

  encrypt(plain: string): Buffer {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.loadKey(), iv);
    const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return Buffer.concat([iv, c.getAuthTag(), body]);
  }

  decrypt(cipher: Buffer): string {
    try {
      const d = createDecipheriv('aes-256-gcm', this.loadKey(), cipher.subarray(0, 12));
      d.setAuthTag(cipher.subarray(12, 28));
      return Buffer.concat([d.update(cipher.subarray(28)), d.final()]).toString('utf8');
    } catch (cause) {
      throw new LotwatchError('internal', 'A stored secret could not be decrypted; set the API key again.', {
        cause,
      });
    }
  }
}
