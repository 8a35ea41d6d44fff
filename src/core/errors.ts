import type { ErrorCode, ErrorPayload } from '../shared/ipc/errors';

/**
 * Base class of every error Lotwatch raises on purpose. `code` is stable (the UI maps it to a message);
 * `message` says what happened and what to do; `retryable` tells whether the same call may succeed later.
 */
export class LotwatchError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly fields?: Record<string, string[]>;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { retryable?: boolean; fields?: Record<string, string[]>; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.code = code;
    this.retryable = opts.retryable ?? false;
    if (opts.fields) this.fields = opts.fields;
  }

  /** The payload that may cross the process boundary: no stack, no cause. */
  toPayload(): ErrorPayload {
    const p: ErrorPayload = { code: this.code, message: this.message, retryable: this.retryable };
    if (this.fields) p.fields = this.fields;
    return p;
  }
}

/** Input to a contract method or a core function failed validation; `fields` names each bad field. */
export class BadInputError extends LotwatchError {
  constructor(message: string, fields?: Record<string, string[]>) {
    super('bad_input', message, fields ? { fields } : {});
  }
}

/** The database file was written by a newer Lotwatch; it is left untouched. */
export class DatabaseFromFutureError extends LotwatchError {
  constructor(
    readonly path: string,
    readonly fileVersion: number,
    readonly supportedVersion: number,
  ) {
    super(
      'db_from_future',
      `The data file ${path} was written by a newer version of Lotwatch (schema ${fileVersion}; this version ` +
        `understands up to ${supportedVersion}). It was not changed. Update Lotwatch, or choose another data folder.`,
    );
  }
}

/** The database could not be opened or read (missing native module, corrupt file, no permission). */
export class DatabaseUnavailableError extends LotwatchError {
  constructor(message: string, cause?: unknown) {
    super('db_unavailable', message, { cause });
  }
}

/**
 * `--demo-speed` (an accelerated clock) met the real service. The fast clock only ever drives the Demo market: the
 * watcher on it would ask the real service that many times faster and spend a plan's month of requests in minutes.
 * `when` is 'start' (the data folder has Demo mode off, `dataDir` names it) or 'switch' (turning Demo mode off in
 * a fast run). Code `bad_input`: the same request fails the same way until Lotwatch runs at real time.
 */
export class DemoSpeedError extends LotwatchError {
  constructor(speed: number, when: 'start' | 'switch', dataDir = '') {
    super(
      'bad_input',
      when === 'start'
        ? `--demo-speed only applies to Demo mode, and Demo mode is off in the data folder ${dataDir}: Lotwatch ` +
            `would call the real service with your API key ${speed} times faster than real time and spend your plan's ` +
            'requests in minutes. Start without --demo-speed, or use another --data-dir for a fast demo.'
        : `Demo mode stays on: this Lotwatch runs the Demo market ${speed} times faster than real time ` +
            '(--demo-speed), and the real service must never be called at that pace. To use your API key, restart ' +
            'Lotwatch without --demo-speed.',
    );
  }
}
