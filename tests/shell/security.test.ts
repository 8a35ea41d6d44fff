import { describe, expect, it } from 'vitest';
import { electronBindingPath, resolveElectronBinding } from '../../src/main/nativeBinding';
import { safeStorageBox } from '../../src/main/safeStorageBox';
import { isAllowedNavigation, isSafeExternalUrl, isTrustedSenderUrl } from '../../src/main/security';
import { defaultDataDir } from '../../src/headless/paths';

describe('external links', () => {
  it.each([
    ['https://www.copart.com/lot/12345678/clean-title', true],
    ['https://www.iaai.com/VehicleDetail/41234567~US', true],
    ['https://apibara.tech/', true],
    ['http://www.copart.com/lot/1', false],
    ['https://copart.com.evil.example/', false],
    ['https://user:pw@www.copart.com/', false],
    ['javascript:alert(1)', false],
    ['file:///etc/passwd', false],
    ['not a url', false],
  ])('%s -> %s', (url, expected) => expect(isSafeExternalUrl(url)).toBe(expected));
});

describe('trusted senders and navigation', () => {
  const app = 'file:///opt/lotwatch/out/renderer/index.html';
  it('trusts only the app page', () => {
    expect(isTrustedSenderUrl(`${app}#/settings`, app)).toBe(true);
    expect(isTrustedSenderUrl('file:///tmp/evil.html', app)).toBe(false);
    expect(isTrustedSenderUrl('https://evil.example/', app)).toBe(false);
    expect(isTrustedSenderUrl(undefined, app)).toBe(false);
    expect(isTrustedSenderUrl('http://localhost:5173/x', 'http://localhost:5173/')).toBe(true);
    expect(isTrustedSenderUrl('http://localhost:5174/', 'http://localhost:5173/')).toBe(false);
    expect(isAllowedNavigation('https://www.copart.com/', app)).toBe(false);
  });
});

describe('native binding for Electron', () => {
  it('keys the cache by better-sqlite3 version, ABI, platform and arch', () => {
    expect(
      electronBindingPath({
        cacheRoot: '/c',
        betterSqliteVersion: '12.9.0',
        modules: '140',
        platform: 'linux',
        arch: 'x64',
      }),
    ).toBe('/c/better-sqlite3-12.9.0/electron-v140-linux-x64/better_sqlite3.node');
  });
  it('prefers an existing env path, then an existing cache file, else none', () => {
    expect(
      resolveElectronBinding({ LOTWATCH_SQLITE_BINDING: '/nonexistent' }, '/also/nonexistent'),
    ).toBeUndefined();
    expect(resolveElectronBinding({ LOTWATCH_SQLITE_BINDING: __filename }, '/x')).toBe(__filename);
    expect(resolveElectronBinding({}, __filename)).toBe(__filename);
  });
});

describe('safeStorage secret box', () => {
  it('refuses to store a key when the keychain is unavailable', () => {
    const box = safeStorageBox({
      isEncryptionAvailable: () => false,
      encryptString: () => Buffer.alloc(0),
      decryptString: () => '',
    });
    expect(() => box.encrypt('k')).toThrow(/keychain is not available/);
  });
  it('wraps a decryption failure in a typed error', () => {
    const box = safeStorageBox({
      isEncryptionAvailable: () => true,
      encryptString: (s) => Buffer.from(s),
      decryptString: () => {
        throw new Error('boom');
      },
    });
    expect(() => box.decrypt(Buffer.from('x'))).toThrow(/set it again/);
  });
});

describe('default data folder', () => {
  it('matches Electron userData for the app name on each platform', () => {
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/x' }, 'linux')).toBe('/x/lotwatch');
    expect(defaultDataDir({ APPDATA: 'C:/AppData' }, 'win32')).toMatch(/AppData.lotwatch$/);
    expect(defaultDataDir({}, 'darwin')).toMatch(/Library\/Application Support\/lotwatch$/);
    expect(defaultDataDir({ LOTWATCH_DATA_DIR: '/d' }, 'linux')).toBe('/d');
  });
});
