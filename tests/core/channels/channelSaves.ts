import type { ChannelSave } from '../../../src/shared/alertChannels';
import type { HttpReceiver, NtfyReceiver, SmtpReceiver } from '../../helpers/receivers';

/**
 * The three alert channels the channel tests save, pointed at the test's local receivers (read when a channel is
 * built: the receivers start in `beforeAll`): the office email (SMTP user `buyer` with `password`), the phone
 * (ntfy, token `tk_ntfy_secret`) and the dispatch webhook (secret path `/hooks/s3cr3t-path`). `over` replaces fields.
 */
export function channelSaves(
  receivers: () => { smtp: SmtpReceiver; ntfy: NtfyReceiver; hook: HttpReceiver },
  password: string,
): Record<'email' | 'phone' | 'webhook', (over?: Partial<ChannelSave>) => ChannelSave> {
  return {
    email: (over = {}) =>
      ({
        name: 'Office email',
        config: {
          type: 'email',
          host: '127.0.0.1',
          port: receivers().smtp.port,
          security: 'none',
          username: 'buyer',
          from: 'lotwatch@example.com',
          to: 'buyer@example.com',
        },
        secret: password,
        ...over,
      }) as ChannelSave,
    phone: (over = {}) =>
      ({
        name: 'My phone',
        config: { type: 'ntfy', server: receivers().ntfy.url, topic: 'lotwatch-test', priority: 3 },
        secret: 'tk_ntfy_secret',
        ...over,
      }) as ChannelSave,
    webhook: (over = {}) =>
      ({
        name: 'Dispatch webhook',
        config: { type: 'webhook', format: 'json', telegram_chat_id: '' },
        secret: `${receivers().hook.url}/hooks/s3cr3t-path`,
        ...over,
      }) as ChannelSave,
  };
}
