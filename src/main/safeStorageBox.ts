import type { SecretBox } from '../core/secrets';
import { LotwatchError } from '../core/errors';

/** The part of Electron's `safeStorage` Lotwatch uses. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(cipher: Buffer): string;
}

/** A SecretBox over Electron's safeStorage: the OS keychain (macOS), DPAPI (Windows), libsecret/kwallet (Linux). */
export function safeStorageBox(safeStorage: SafeStorageLike): SecretBox {
  return {
    description: "your operating system's keychain (Electron safeStorage)",
    encrypt(plain) {
      if (!safeStorage.isEncryptionAvailable()) {
        throw new LotwatchError(
          'internal',
          'The system keychain is not available, so the API key cannot be stored safely. Unlock the keychain and try again.',
        );
      }
      return safeStorage.encryptString(plain);
    },
    decrypt(cipher) {
      try {
        return safeStorage.decryptString(cipher);
      } catch (cause) {
        throw new LotwatchError('internal', 'The stored API key could not be decrypted; set it again.', {
          cause,
        });
      }
    },
  };
}
