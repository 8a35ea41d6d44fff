import { describe, expect, it } from 'vitest';
import { EVENT_NAMES, METHOD_NAMES, isEventName, isMethodName } from '../../src/shared/ipc/channels';
import { contract, events } from '../../src/shared/ipc/contract';
import { ERROR_CODES, err, ok } from '../../src/shared/ipc/errors';
import { DEFAULT_SETTINGS, SettingsPatchSchema } from '../../src/shared/settings';

describe('contract and channel list', () => {
  it('lists exactly the methods of the contract', () => {
    expect([...METHOD_NAMES].sort()).toEqual(Object.keys(contract).sort());
  });

  it('lists exactly the events of the contract', () => {
    expect([...EVENT_NAMES].sort()).toEqual(Object.keys(events).sort());
  });

  it('names methods domain.verb (a domain may have a part: team.users.list) and events domain.pastTense', () => {
    for (const m of METHOD_NAMES) expect(m).toMatch(/^[a-z][A-Za-z]*(\.[a-z][A-Za-z]*){1,2}$/);
    for (const e of EVENT_NAMES) expect(e).toMatch(/^[a-z]+\.[a-z]+ed$/);
  });

  it('recognises only listed names', () => {
    expect(isMethodName('settings.get')).toBe(true);
    expect(isMethodName('settings.drop')).toBe(false);
    expect(isMethodName(42)).toBe(false);
    expect(isMethodName('__proto__')).toBe(false);
    expect(isEventName('settings.changed')).toBe(true);
    expect(isEventName('settings.get')).toBe(false);
  });
});

describe('Result envelope', () => {
  it('builds both halves', () => {
    expect(ok(3)).toEqual({ ok: true, value: 3 });
    expect(err('bad_input', 'x', { fields: { a: ['b'] } })).toEqual({
      ok: false,
      error: { code: 'bad_input', message: 'x', retryable: false, fields: { a: ['b'] } },
    });
  });

  it('has unique error codes', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
  });
});

describe('settings schema', () => {
  it('has a default for every field and starts in Demo mode', () => {
    expect(DEFAULT_SETTINGS).toMatchObject({ theme: 'system', demoMode: true, notificationsEnabled: true });
  });

  it('refuses unknown fields and bad values with the field named', () => {
    const unknown = SettingsPatchSchema.safeParse({ colour: 'red' });
    expect(unknown.success).toBe(false);
    const bad = SettingsPatchSchema.safeParse({ serviceUrl: 'ftp://example.com' });
    expect(bad.success).toBe(false);
    if (!bad.success) expect(bad.error.issues[0]?.path).toEqual(['serviceUrl']);
    expect(SettingsPatchSchema.safeParse({ theme: 'dark' }).success).toBe(true);
  });

  it('accepts plain http only for a service on this computer, so the key never crosses a network in clear', () => {
    const remote = SettingsPatchSchema.safeParse({
      serviceUrl: 'http://api.example.com/api/v1/vehicle-auction',
    });
    expect(remote.success).toBe(false);
    if (!remote.success) expect(remote.error.issues[0]?.message).toMatch(/https/);
    for (const ok of [
      'https://api.example.com/api/v1/vehicle-auction',
      'http://127.0.0.1:8787/api/v1/vehicle-auction',
      'http://localhost:8787/api/v1/vehicle-auction',
      'http://[::1]:8787/api/v1/vehicle-auction',
    ]) {
      expect(SettingsPatchSchema.safeParse({ serviceUrl: ok }).success, ok).toBe(true);
    }
    expect(SettingsPatchSchema.safeParse({ serviceUrl: 'http://127.evil.com/x' }).success).toBe(false);
  });
});
