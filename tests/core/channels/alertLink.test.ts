import { describe, expect, it } from 'vitest';
import { emailHtml, emailText } from '../../../src/core/channels/email';
import { ntfyMessageText, ntfyPayload } from '../../../src/core/channels/ntfy';
import { messageFor } from '../../../src/core/channels/route';
import { webhookBody } from '../../../src/core/channels/webhook';
import { NtfyConfigSchema } from '../../../src/shared/alertChannels';

// An alert with its own link (a call watch's new video) carries it to every channel, as a lot alert carries its
// lot's page.

const VIDEO = 'https://www.youtube.com/watch?v=vid00000212';
const alert = {
  id: 7,
  kind: 'call_new_item',
  title: 'New video on “Auction Garage”: copart haul #212',
  body: 'It is new in the answer of GET /api/v1/vp/channel/videos.',
  lot_key: null,
  url: VIDEO,
  created_at: Date.UTC(2026, 10, 22, 12),
};

describe("an alert's own link in the channels", () => {
  it('is in the email, the ntfy notification and every webhook format', () => {
    const msg = messageFor('k1', [alert]);
    expect(msg).toMatchObject({ url: VIDEO, lot_url: null });
    expect(emailText(msg)).toContain(`Link: ${VIDEO}`);
    expect(emailHtml(msg)).toContain(`href="${VIDEO}"`);
    expect(ntfyMessageText(msg).endsWith(VIDEO)).toBe(true);
    const ntfy = NtfyConfigSchema.parse({ type: 'ntfy', server: 'https://ntfy.sh', topic: 'lotwatch-test' });
    expect(ntfyPayload(ntfy, msg)['click']).toBe(VIDEO);
    expect(webhookBody('json', msg, '')).toMatchObject({ url: VIDEO, alerts: [{ url: VIDEO }] });
    expect(JSON.stringify(webhookBody('discord', msg, ''))).toContain(VIDEO);
    expect(JSON.stringify(webhookBody('slack', msg, ''))).toContain(VIDEO);
    expect(JSON.stringify(webhookBody('telegram', msg, '1'))).toContain(VIDEO);
    // In a quiet-hours digest, each line names its link.
    expect(messageFor('k2', [alert, { ...alert, id: 8 }]).body).toContain(`(${VIDEO})`);
  });
});
