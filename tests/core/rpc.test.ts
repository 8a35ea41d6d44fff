import { describe, expect, it, vi } from 'vitest';
import { BadInputError, LotwatchError } from '../../src/core/errors';
import { createLogger, silentLogger } from '../../src/core/log';
import { dispatch, type Handlers } from '../../src/core/rpc';
import { DEFAULT_SETTINGS } from '../../src/shared/settings';

const info = {
  name: 'Lotwatch',
  version: '1',
  shell: 'headless' as const,
  mode: 'demo' as const,
  dataDir: '/d',
  dbPath: '/d/x',
  database: 'sqlite' as const,
  platform: 'linux-x64',
  versions: { node: '20', electron: null, sqlite: '3' },
  schemaVersion: 10,
  clock: { now: 0, speed: 1 },
};

function handlers(over: Partial<Handlers> = {}): Handlers {
  // Only the methods a test calls need a body; dispatch never reaches the others.
  return {
    ...({} as Handlers),
    ...base(),
    ...over,
  };
}

function base(): Partial<Handlers> {
  return {
    'app.info': () => info,
    'settings.get': () => DEFAULT_SETTINGS,
    'settings.update': () => DEFAULT_SETTINGS,
  };
}

describe('dispatch', () => {
  it('answers a known method with its parsed output', async () => {
    expect(await dispatch(handlers(), 'app.info', undefined, silentLogger)).toEqual({
      ok: true,
      value: info,
    });
  });

  it('refuses an unknown method with a typed error and never calls a handler', async () => {
    const h = handlers();
    const spy = vi.spyOn(h, 'settings.get');
    const r = await dispatch(h, 'settings.drop', {}, silentLogger);
    expect(r).toMatchObject({ ok: false, error: { code: 'unknown_method' } });
    expect(spy).not.toHaveBeenCalled();
    expect(await dispatch(h, { evil: true }, {}, silentLogger)).toMatchObject({
      error: { code: 'unknown_method' },
    });
  });

  it('refuses malformed input with the offending field and never calls the handler', async () => {
    const update = vi.fn(() => DEFAULT_SETTINGS);
    const r = await dispatch(
      handlers({ 'settings.update': update }),
      'settings.update',
      { theme: 'purple' },
      silentLogger,
    );
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('bad_input');
      expect(Object.keys(r.error.fields ?? {})).toEqual(['theme']);
      expect(r.error.message).toBe('Theme: choose one of the listed values.');
    }
    expect(update).not.toHaveBeenCalled();
  });

  it('passes a LotwatchError through as its payload', async () => {
    const r = await dispatch(
      handlers({
        'settings.get': () => {
          throw new BadInputError('nope', { x: ['y'] });
        },
      }),
      'settings.get',
      undefined,
      silentLogger,
    );
    expect(r).toEqual({
      ok: false,
      error: { code: 'bad_input', message: 'nope', retryable: false, fields: { x: ['y'] } },
    });
  });

  it('hides an unexpected error behind a generic message, logs it, and leaks no stack', async () => {
    const lines: string[] = [];
    const log = createLogger({ write: (l) => lines.push(l) });
    const r = await dispatch(
      handlers({
        'settings.get': () => {
          throw new TypeError('secret internals at /home/x/file.ts:1');
        },
      }),
      'settings.get',
      undefined,
      log,
    );
    expect(r).toMatchObject({ ok: false, error: { code: 'internal', retryable: false } });
    expect(JSON.stringify(r)).not.toMatch(/secret internals|file\.ts|at /);
    expect(lines.join('\n')).toMatch(/secret internals/);
  });

  it('refuses an output that breaks the contract', async () => {
    const r = await dispatch(
      handlers({ 'app.info': () => ({ ...info, shell: 'toaster' }) as never }),
      'app.info',
      undefined,
      silentLogger,
    );
    expect(r).toMatchObject({ ok: false, error: { code: 'internal' } });
  });

  it('keeps the retryable flag of a LotwatchError', async () => {
    const r = await dispatch(
      handlers({
        'settings.get': () => {
          throw new LotwatchError('network', 'offline', { retryable: true });
        },
      }),
      'settings.get',
      null,
      silentLogger,
    );
    expect(r).toMatchObject({ ok: false, error: { code: 'network', retryable: true } });
  });
});

describe('logger', () => {
  it('redacts secrets wherever they appear', () => {
    const lines: string[] = [];
    const log = createLogger({ write: (l) => lines.push(l), secrets: () => ['sk-very-secret'] });
    log.info('using sk-very-secret now', { header: 'X-API-Key: sk-very-secret' });
    expect(lines[0]).not.toContain('sk-very-secret');
    expect(lines[0]).toContain('[redacted]');
  });

  it('drops entries below its level', () => {
    const lines: string[] = [];
    const log = createLogger({ level: 'warn', write: (l) => lines.push(l) });
    log.info('quiet');
    log.warn('loud');
    expect(lines).toHaveLength(1);
  });
});
