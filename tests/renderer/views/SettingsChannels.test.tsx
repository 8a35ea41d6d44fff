// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { format, isSameDay } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { createAppStore } from '../../../src/renderer/src/app/appStore';
import { ChannelsSection } from '../../../src/renderer/src/features/settings/ChannelsSection';
import { SettingsView } from '../../../src/renderer/src/features/settings/SettingsView';
import { DEFAULT_CHANNEL_KINDS } from '../../../src/shared/alertChannels';
import { type MethodOutput } from '../../../src/shared/ipc/contract';
import type { Result } from '../../../src/shared/ipc/errors';
import { errResult, okResult } from '../fakeBridge';
import { frozenAtNow, inputsOf, installFake, render } from './fakeApi';
import { channel, delivery, MINUTE, NOW, officeEmail, statusView } from './fixtures';

// Settings, Alert channels: email, a phone through ntfy and webhooks that get alerts besides the inbox. What the
// buyer types goes to `channels.save` as the contract says (a secret only when typed, null to forget it), a refused
// save shows at its field, Test says what happened, and the delivery log says where each alert went.

frozenAtNow('#/settings');

/** A time as the section says it: "10:02 AM" today, "Jan 14, 10:02 AM" another day. */
const when = (ms: number) => format(ms, isSameDay(ms, NOW) ? 'h:mm a' : 'MMM d, h:mm a');
const section = () => screen.getByRole('group', { name: 'Alert channels' });
const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

const email = officeEmail;
const discord = channel({
  id: 3,
  type: 'webhook',
  name: 'Discord',
  config: { type: 'webhook', format: 'discord', telegram_chat_id: '' },
  has_secret: true,
  secret_hint: 'discord.com/api/webhooks/…',
  health: {
    last_sent_at: NOW - 2 * 60 * MINUTE,
    failures: 3,
    last_error: 'The webhook address was refused (404).',
    waiting: 2,
  },
});

describe('Settings · Alert channels', () => {
  it('lists each channel with its type in words and how it has been doing', async () => {
    installFake({ channels: [channel(), email, discord] });
    render(<ChannelsSection />);
    const list = await within(section()).findByRole('list', { name: 'Alert channels' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0]?.textContent).toContain('My phone');
    expect(items[0]?.textContent).toContain('Phone (ntfy) · topic lotwatch-k7q2x9');
    expect(items[0]?.textContent).toContain(`Last sent ${when(NOW - 10 * MINUTE)}`);
    expect(items[1]?.textContent).toContain('Email · to office@example.com');
    expect(items[2]?.textContent).toContain('Webhook · Discord');
    expect(items[2]?.textContent).toContain('2 waiting');
    const failing = within(items[2] as HTMLElement).getByText(
      /3 failures: The webhook address was refused \(404\)\./,
    );
    expect(failing.className).toContain('ch-bad');
    expect(
      (
        within(items[0] as HTMLElement).getByRole('checkbox', {
          name: 'Send alerts to My phone',
        }) as HTMLInputElement
      ).checked,
    ).toBe(true);
    for (const b of ['Edit Discord', 'Test Discord', 'Delete Discord'])
      expect(within(list).getByRole('button', { name: b })).toBeTruthy();
  });

  it('adds an email channel: the fields as typed, the password as the secret, and the form closes', async () => {
    const fake = installFake();
    render(<ChannelsSection />);
    await screen.findByText('No channels yet: alerts go to the inbox only.');
    fireEvent.click(screen.getByRole('button', { name: 'Email' }));
    const form = screen.getByRole('group', { name: 'New email channel' });
    expect((screen.getByLabelText('Password') as HTMLInputElement).type).toBe('password');
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('');
    expect([...(screen.getByLabelText('Security') as HTMLSelectElement).options].map((o) => o.text)).toEqual([
      'STARTTLS (port 587)',
      'TLS (port 465)',
      'None (a relay on your own network)',
    ]);
    type('Name', 'Office email');
    type('Mail server (SMTP host)', 'smtp.example.com');
    // Choosing TLS moves the usual port along with it.
    fireEvent.change(screen.getByLabelText('Security'), { target: { value: 'tls' } });
    expect((screen.getByLabelText('Port') as HTMLInputElement).value).toBe('465');
    type('User name', 'buyer@example.com');
    type('Password', 'app-password-1');
    type('From address', 'buyer@example.com');
    type('To address', 'office@example.com');
    // Bid changes are off by default; the buyer wants them by email.
    const bids = within(form).getByRole('checkbox', { name: 'Bid changes' }) as HTMLInputElement;
    expect(bids.checked).toBe(false);
    fireEvent.click(bids);
    fireEvent.click(within(form).getByRole('radio', { name: 'Always send (day and night)' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Add channel' }));

    await waitFor(() => expect(screen.queryByRole('group', { name: 'New email channel' })).toBeNull());
    expect(inputsOf(fake, 'channels.save')).toEqual([
      {
        name: 'Office email',
        enabled: true,
        kinds: expect.arrayContaining([...DEFAULT_CHANNEL_KINDS, 'bid_changed']),
        quiet: 'never',
        quiet_hours: { enabled: true, start: '22:00', end: '07:00' },
        config: {
          type: 'email',
          host: 'smtp.example.com',
          port: 465,
          security: 'tls',
          username: 'buyer@example.com',
          from: 'buyer@example.com',
          to: 'office@example.com',
        },
        secret: 'app-password-1',
      },
    ]);
    expect(inputsOf(fake, 'channels.save')[0]?.kinds).toHaveLength(DEFAULT_CHANNEL_KINDS.length + 1);
    expect(await within(section()).findByRole('button', { name: 'Edit Office email' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe(
      'Added Office email. Use Test to send it a message now.',
    );
    expect(fake.channels.map((c) => [c.name, c.has_secret])).toEqual([['Office email', true]]);
  });

  it('adds a phone without an access token: no secret is sent, and its own quiet hours are kept', async () => {
    const fake = installFake();
    render(<ChannelsSection />);
    fireEvent.click(await screen.findByRole('button', { name: 'Phone (ntfy)' }));
    expect((screen.getByLabelText('ntfy server') as HTMLInputElement).value).toBe('https://ntfy.sh');
    expect([...(screen.getByLabelText('Priority') as HTMLSelectElement).options].map((o) => o.text)).toEqual([
      'Lowest (no sound)',
      'Low',
      'Normal',
      'High',
      'Urgent',
    ]);
    type('Topic', 'lotwatch-k7q2x9');
    fireEvent.change(screen.getByLabelText('Priority'), { target: { value: '4' } });
    // A phone keeps quiet at night by default, with times of its own.
    expect((screen.getByRole('radio', { name: 'Its own quiet hours' }) as HTMLInputElement).checked).toBe(
      true,
    );
    type('Quiet from', '21:30');
    fireEvent.click(screen.getByRole('button', { name: 'Add channel' }));
    await waitFor(() => expect(inputsOf(fake, 'channels.save')).toHaveLength(1));
    const sent = inputsOf(fake, 'channels.save')[0];
    expect(sent).not.toHaveProperty('secret');
    expect(sent).toMatchObject({
      name: 'My phone',
      quiet: 'own',
      quiet_hours: { enabled: true, start: '21:30', end: '07:00' },
      config: { type: 'ntfy', server: 'https://ntfy.sh', topic: 'lotwatch-k7q2x9', priority: 4 },
    });
  });

  it('edits a channel with the password left empty: the stored one is kept (no secret sent)', async () => {
    const fake = installFake({ channels: [email] });
    render(<ChannelsSection />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Office email' }));
    const password = screen.getByLabelText('Password') as HTMLInputElement;
    expect(password.value).toBe('');
    expect(password.placeholder).toBe('Stored: •••• (leave empty to keep)');
    expect((screen.getByLabelText('Mail server (SMTP host)') as HTMLInputElement).value).toBe(
      'smtp.example.com',
    );
    type('To address', 'yard@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Save channel' }));
    await waitFor(() => expect(inputsOf(fake, 'channels.save')).toHaveLength(1));
    const sent = inputsOf(fake, 'channels.save')[0];
    expect(sent).not.toHaveProperty('secret');
    expect(sent).toMatchObject({
      id: 2,
      enabled: true,
      config: { to: 'yard@example.com', host: 'smtp.example.com' },
    });
    expect(await screen.findByText('Saved Office email.')).toBeTruthy();
    expect(fake.channels[0]?.has_secret).toBe(true);
  });

  it('"Forget" sends null for the secret; typing a new one replaces it instead', async () => {
    const fake = installFake({ channels: [discord] });
    render(<ChannelsSection />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Discord' }));
    const address = screen.getByLabelText('Webhook address') as HTMLInputElement;
    expect(address.type).toBe('password');
    expect(address.placeholder).toBe('Stored: discord.com/api/webhooks/… (leave empty to keep)');
    fireEvent.click(screen.getByRole('button', { name: 'Forget the stored address' }));
    expect(screen.getByText('The stored address is forgotten when you save.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save channel' }));
    await waitFor(() => expect(inputsOf(fake, 'channels.save')).toHaveLength(1));
    expect(inputsOf(fake, 'channels.save')[0]).toMatchObject({ id: 3, secret: null });
    await screen.findByText('Saved Discord.');
    expect(fake.channels[0]?.has_secret).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Edit Discord' }));
    type('Webhook address', ' https://discord.com/api/webhooks/123/abc ');
    fireEvent.click(screen.getByRole('button', { name: 'Save channel' }));
    await waitFor(() => expect(inputsOf(fake, 'channels.save')).toHaveLength(2));
    expect(inputsOf(fake, 'channels.save')[1]).toMatchObject({
      secret: 'https://discord.com/api/webhooks/123/abc',
    });
  });

  it('shows a refused save at its fields, marked invalid, and keeps everything typed', async () => {
    const fake = installFake({
      handlers: {
        'channels.save': () =>
          errResult('bad_input', 'invalid', {
            fields: {
              'config.telegram_chat_id': ['Enter the chat ID the Telegram bot writes to.'],
              name: ['Enter a name for this channel.'],
            },
          }),
      },
    });
    render(<ChannelsSection />);
    fireEvent.click(await screen.findByRole('button', { name: /^Webhook/ }));
    // The chat ID is asked only for a Telegram bot, and the address says what a bot's looks like.
    expect(screen.queryByLabelText('Telegram chat ID')).toBeNull();
    fireEvent.change(screen.getByLabelText('Format'), { target: { value: 'telegram' } });
    expect((screen.getByLabelText('Bot address') as HTMLInputElement).placeholder).toBe(
      'https://api.telegram.org/bot<token>/sendMessage',
    );
    type('Name', ' ');
    type('Bot address', 'https://api.telegram.org/bot123:abc/sendMessage');
    fireEvent.click(screen.getByRole('button', { name: 'Add channel' }));

    const chatId = screen.getByLabelText('Telegram chat ID') as HTMLInputElement;
    await waitFor(() => expect(chatId.getAttribute('aria-invalid')).toBe('true'));
    const message = screen.getByText('Enter the chat ID the Telegram bot writes to.');
    expect(chatId.getAttribute('aria-describedby')).toBe(message.id);
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Enter a name for this channel.')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Nothing was saved: correct the highlighted fields.');
    // Still open, with what was typed.
    expect((screen.getByLabelText('Bot address') as HTMLInputElement).value).toBe(
      'https://api.telegram.org/bot123:abc/sendMessage',
    );
    expect((screen.getByLabelText('Format') as HTMLSelectElement).value).toBe('telegram');
    expect(inputsOf(fake, 'channels.save')[0]).toMatchObject({
      config: { type: 'webhook', format: 'telegram', telegram_chat_id: '' },
      secret: 'https://api.telegram.org/bot123:abc/sendMessage',
    });
  });

  it('Test says what happened next to the channel, busy while it waits', async () => {
    let answer: (r: Result<MethodOutput<'channels.test'>>) => void = () => undefined;
    const fake = installFake({
      channels: [email, discord],
      handlers: {
        'channels.test': () => new Promise((resolve) => (answer = resolve)),
      },
    });
    render(<ChannelsSection />);
    fireEvent.click(await screen.findByRole('button', { name: 'Test Office email' }));
    const button = screen.getByRole('button', { name: 'Test Office email' }) as HTMLButtonElement;
    expect(button.textContent).toBe('Testing…');
    expect(button.disabled).toBe(true);
    await waitFor(() => expect(inputsOf(fake, 'channels.test')).toHaveLength(1));
    await act(async () =>
      answer(okResult({ ok: true, message: 'Sent to office@example.com through smtp.example.com.' })),
    );
    const item = button.closest('li') as HTMLElement;
    const said = within(item).getByText('Sent to office@example.com through smtp.example.com.');
    expect(said.className).toContain('ok');
    expect(button.textContent).toBe('Test');
    expect(inputsOf(fake, 'channels.test')).toEqual([{ id: 2 }]);

    fireEvent.click(screen.getByRole('button', { name: 'Test Discord' }));
    await waitFor(() => expect(inputsOf(fake, 'channels.test')).toHaveLength(2));
    await act(async () =>
      answer(
        okResult({ ok: false, message: 'Discord refused the address (404): copy the webhook URL again.' }),
      ),
    );
    const refused = screen.getByText('Discord refused the address (404): copy the webhook URL again.');
    expect(refused.className).toContain('ch-bad');
    expect(refused.closest('li')?.textContent).toContain('Webhook · Discord');
  });

  it('switches a channel off without touching its secret', async () => {
    const fake = installFake({ channels: [email] });
    render(<ChannelsSection />);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Send alerts to Office email' }));
    await waitFor(() => expect(inputsOf(fake, 'channels.save')).toHaveLength(1));
    const sent = inputsOf(fake, 'channels.save')[0];
    expect(sent).toMatchObject({ id: 2, enabled: false, config: email.config, kinds: email.kinds });
    expect(sent).not.toHaveProperty('secret');
    await waitFor(() => expect(screen.getByText(/Turned off: sends nothing/)).toBeTruthy());
  });

  it('asks in a dialog before deleting; Cancel deletes nothing', async () => {
    const fake = installFake({ channels: [email, discord] });
    render(<ChannelsSection />);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Discord' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Discord?' });
    expect(dialog.textContent).toContain('forgets its settings, its stored address and its delivery log');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(inputsOf(fake, 'channels.remove')).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Delete Discord' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete channel' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Edit Discord' })).toBeNull());
    expect(inputsOf(fake, 'channels.remove')).toEqual([{ id: 3 }]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Edit Office email' })).toBeTruthy();
  });

  it('logs deliveries newest first: a retry with its time and attempts, a hold, a skip with why', async () => {
    const title = '2019 TESLA MODEL 3 SE LONG RANGE DUAL MOTOR · Copart lot 45416833';
    installFake({
      channels: [email, discord],
      deliveries: [
        delivery({
          id: 1,
          alert_title: title,
          channel_name: 'Office email',
          status: 'sent',
          attempts: 1,
          at: NOW - 40 * MINUTE,
        }),
        delivery({
          id: 2,
          alert_title: title,
          channel_name: 'Discord',
          status: 'pending',
          attempts: 3,
          at: NOW - 5 * MINUTE,
          next_at: NOW + 7 * MINUTE,
          detail: 'The webhook address was refused (404).',
        }),
        delivery({
          id: 3,
          channel_name: 'My phone',
          status: 'held',
          attempts: 0,
          at: NOW - 20 * MINUTE,
          next_at: NOW + 60 * MINUTE,
        }),
        delivery({
          id: 4,
          channel_name: 'Slack',
          status: 'skipped',
          attempts: 0,
          at: NOW - 30 * MINUTE,
          detail: 'not a kind this channel sends',
        }),
        delivery({
          id: 5,
          channel_name: 'Discord',
          status: 'failed',
          attempts: 12,
          at: NOW - 50 * MINUTE,
          detail: 'No answer for a day.',
        }),
      ],
    });
    render(<ChannelsSection />);
    const table = await screen.findByRole('table', { name: 'Delivery log' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent));
    const t = when;
    expect(rows).toEqual([
      [
        t(NOW - 5 * MINUTE),
        title,
        'Discord',
        `Retrying at ${t(NOW + 7 * MINUTE)}`,
        '3',
        'The webhook address was refused (404).',
      ],
      [
        t(NOW - 20 * MINUTE),
        '2019 TESLA MODEL 3: bid $12,300',
        'My phone',
        `Waiting for quiet hours to end at ${t(NOW + 60 * MINUTE)}`,
        '0',
        '',
      ],
      [
        t(NOW - 30 * MINUTE),
        '2019 TESLA MODEL 3: bid $12,300',
        'Slack',
        'Not sent: not a kind this channel sends',
        '0',
        '',
      ],
      [t(NOW - 40 * MINUTE), title, 'Office email', 'Sent', '1', ''],
      [
        t(NOW - 50 * MINUTE),
        '2019 TESLA MODEL 3: bid $12,300',
        'Discord',
        'Gave up',
        '12',
        'No answer for a day.',
      ],
    ]);
    // The title wraps rather than being cut before its lot number.
    expect(within(table).getAllByText(title)[0]?.className).toContain('ch-wrap');
  });

  it('refreshes when deliveries change', async () => {
    let log = [delivery({ id: 1, status: 'pending', attempts: 0, next_at: NOW })];
    const fake = installFake({
      channels: [channel()],
      handlers: { 'channels.list': () => okResult({ channels: [channel()], log }) },
    });
    render(<ChannelsSection />);
    expect(await screen.findByText('Waiting to send')).toBeTruthy();
    log = [delivery({ id: 1, status: 'sent', attempts: 1 })];
    act(() => fake.emit({ name: 'deliveries.changed', payload: { at: NOW } }));
    act(() => fake.emit({ name: 'deliveries.changed', payload: { at: NOW } }));
    await waitFor(() => expect(screen.queryByText('Waiting to send')).toBeNull());
    expect(screen.getByText('Sent')).toBeTruthy();
    // One refresh for the burst.
    expect(inputsOf(fake, 'channels.list')).toHaveLength(2);
  });

  it('sits outside the settings form, keeps what is typed when a setting changes, and Enter saves the channel', async () => {
    const fake = installFake({
      handlers: {
        'status.get': () => okResult(statusView()),
      },
    });
    const store = createAppStore(fake.bridge);
    await act(() => store.getState().load());
    render(<SettingsView store={store} />);
    await screen.findByText('No channels yet: alerts go to the inbox only.');
    const legend = [...document.querySelectorAll('legend')].find((l) => l.textContent === 'Alert channels')!;
    expect(legend.closest('form[aria-label="Settings"]')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Phone (ntfy)' }));
    type('Topic', 'lotwatch-k7q2x9');
    // A setting saved elsewhere (the tray's pause) re-creates the settings form's draft, not the channel being typed.
    const settings = await fake.bridge.invoke('settings.get', undefined);
    act(() =>
      fake.emit({
        name: 'settings.changed',
        payload: {
          ...(settings as { ok: true; value: object }).value,
          watchPausedUntil: NOW + 3_600_000,
        } as never,
      }),
    );
    expect((screen.getByLabelText('Topic') as HTMLInputElement).value).toBe('lotwatch-k7q2x9');
    const enter = fireEvent.keyDown(screen.getByLabelText('Topic'), { key: 'Enter' });
    expect(enter).toBe(false);
    await waitFor(() => expect(inputsOf(fake, 'channels.save')).toHaveLength(1));
    expect(inputsOf(fake, 'settings.update')).toEqual([]);
  });
});
