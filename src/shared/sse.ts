import type { ContractEvent } from './ipc/contract';

/*
 * The reading side of the event stream (`GET /events`, Server-Sent Events: one `data:` line of `{name, payload}` per
 * contract event, blocks apart by a blank line, `: ping` comments between). Shared by the page's HTTP bridge and the
 * desktop app's team link; pure text in, events out (no DOM, no Node).
 */

/** The event one block carries, or null: a comment (`: ping`), no `data:` line, or data that is not JSON. */
export function sseEventOf(block: string): ContractEvent | null {
  const data = block
    .split('\n')
    .filter((l) => l.startsWith('data:'))
    .map((l) => l.slice(l.startsWith('data: ') ? 6 : 5))
    .join('\n');
  if (!data) return null;
  try {
    return JSON.parse(data) as ContractEvent;
  } catch {
    return null;
  }
}

/**
 * A reader of one stream's text as it arrives in pieces: each call takes the next decoded piece and returns the
 * events of the blocks it completed, in order (line ends `\r\n` and `\r` read as `\n`, also when a piece ends between
 * the two). A new stream needs a new reader. Throws nothing.
 */
export function sseReader(): (piece: string) => ContractEvent[] {
  let buffer = '';
  return (piece) => {
    buffer += piece;
    // A `\r` at the very end may be the first half of `\r\n`: it waits for the next piece.
    const held = buffer.endsWith('\r') ? 1 : 0;
    const text = buffer.slice(0, buffer.length - held).replace(/\r\n?/g, '\n');
    const events: ContractEvent[] = [];
    let start = 0;
    for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n', start)) {
      const e = sseEventOf(text.slice(start, end));
      if (e) events.push(e);
      start = end + 2;
    }
    buffer = text.slice(start) + (held ? '\r' : '');
    return events;
  };
}
