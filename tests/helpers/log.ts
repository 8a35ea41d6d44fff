import type { Logger } from '../../src/core/log';

/** One line a `recordingLog` kept: its level, message and data (`{}` when none was given). */
export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  msg: string;
  data: Record<string, unknown>;
}

/**
 * A logger that keeps every line in `lines`, in order, and writes nothing: for tests that check what Lotwatch says in
 * its log (once, not a line a millisecond; never a key).
 */
export function recordingLog(): Logger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at =
    (level: LogLine['level']) =>
    (msg: string, data: Record<string, unknown> = {}) =>
      void lines.push({ level, msg, data });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
