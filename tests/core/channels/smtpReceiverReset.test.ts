import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSmtpServer, type SmtpReceiver } from '../../helpers/receivers';

// The test SMTP server outlives a sender killed mid-message. A SIGKILLed team server or shell resets its socket;
// smtp-server reports a reset inside a mail transaction as an `error` event, and unheard that event would crash the
// test process that hosts the receiver (and fail a run whose tests all passed).

let rx: SmtpReceiver | undefined;
afterEach(async () => {
  await rx?.close();
  rx = undefined;
});

/** Sends `line` and resolves with the server's next reply (a whole SMTP reply ends with `NNN text\r\n`). */
function say(socket: Socket, line: string | null): Promise<string> {
  return new Promise((resolve) => {
    let got = '';
    const onData = (c: Buffer) => {
      got += c.toString('utf8');
      if (/(^|\r\n)\d{3} [^\r\n]*\r\n$/.test(got)) {
        socket.off('data', onData);
        resolve(got);
      }
    };
    socket.on('data', onData);
    if (line !== null) socket.write(`${line}\r\n`);
  });
}

describe('the test SMTP receiver', () => {
  it('records a client reset inside a mail transaction as a connection error and keeps serving', async () => {
    rx = await startSmtpServer();
    const socket = connect(rx.port, rx.host);
    socket.on('error', () => undefined);
    expect(await say(socket, null)).toMatch(/^220 /);
    expect(await say(socket, 'EHLO sender.test')).toMatch(/250 /);
    expect(await say(socket, 'MAIL FROM:<lotwatch@example.com>')).toMatch(/^250 /);
    expect(await say(socket, 'RCPT TO:<buyer@example.com>')).toMatch(/^250 /);
    // The sender dies inside the transaction, with nothing unread on the server's side.
    socket.resetAndDestroy();

    await vi.waitFor(() =>
      expect(rx?.connectionErrors.map((e) => (e as NodeJS.ErrnoException).code)).toEqual(['ECONNRESET']),
    );
    expect(rx.received).toEqual([]);

    // The next sender is served as usual.
    const next = connect(rx.port, rx.host);
    expect(await say(next, null)).toMatch(/^220 /);
    expect(await say(next, 'QUIT')).toMatch(/^221 /);
    next.destroy();
  });
});
