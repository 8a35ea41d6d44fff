/** A structured logger port. Implementations must never print secrets; `redact` helps callers. */
export interface Logger {
  debug(msg: string, data?: Record<string, unknown>): void;
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
}

type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * A logger that writes one JSON line per entry to `write` (default: stderr), at `level` and above.
 * `secrets` are replaced by `[redacted]` wherever they appear in the message or data.
 */
export function createLogger(
  opts: { level?: Level; write?: (line: string) => void; secrets?: () => string[] } = {},
): Logger {
  const min = ORDER[opts.level ?? 'info'];
  const write = opts.write ?? ((line: string) => process.stderr.write(line + '\n'));
  const emit = (level: Level, msg: string, data?: Record<string, unknown>) => {
    if (ORDER[level] < min) return;
    let line = JSON.stringify({ t: new Date().toISOString(), level, msg, ...data });
    for (const s of opts.secrets?.() ?? []) if (s.length >= 4) line = line.split(s).join('[redacted]');
    write(line);
  };
  return {
    debug: (m, d) => emit('debug', m, d),
    info: (m, d) => emit('info', m, d),
    warn: (m, d) => emit('warn', m, d),
    error: (m, d) => emit('error', m, d),
  };
}

/** A logger that drops everything (tests). */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
