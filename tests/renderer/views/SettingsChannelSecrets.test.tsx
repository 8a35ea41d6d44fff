// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ChannelsSection } from '../../../src/renderer/src/features/settings/ChannelsSection';
import { errResult } from '../fakeBridge';
import { frozenAtNow, inputsOf, installFake, render } from './fakeApi';
import { channel, officeEmail } from './fixtures';

// Settings, Alert channels: a stored password or token goes only to the server it was saved for, so the form asks
// for it again when the server changes; and it says where alerts go when that is a computer on the buyer's own
// network or this one (docs/architecture.md "Delivery", "Alert channels").

frozenAtNow('#/settings');

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const MOVED = /You changed the server: enter the (password|access token) again\./;

const email = officeEmail;

describe('Settings · Alert channels · where a secret goes', () => {
  it('asks for the password again when the host or port changes, and shows the refusal at the password', async () => {
    const fake = installFake({
      channels: [email],
      handlers: {
        'channels.save': () =>
          errResult('bad_input', 'invalid', {
            fields: {
              secret: [
                'Enter the password again for the new server smtp.other.example:587: Lotwatch sends a saved password only to the server it was entered for. Or choose Forget to save without one.',
              ],
            },
          }),
      },
    });
    render(<ChannelsSection />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Office email' }));
    const password = screen.getByLabelText('Password') as HTMLInputElement;
    expect(screen.queryByText(MOVED)).toBeNull();

    type('Mail server (SMTP host)', 'smtp.other.example');
    expect(screen.getByText(MOVED).textContent).toContain('only to the server it was entered for');
    expect(password.placeholder).toBe('Enter the password for the new server');
    // The same server in another spelling is not a move; another port is.
    type('Mail server (SMTP host)', 'SMTP.Example.com.');
    expect(screen.queryByText(MOVED)).toBeNull();
    type('Port', '465');
    expect(screen.getByText(MOVED)).toBeTruthy();
    // A new password, or forgetting the old one, answers it.
    type('Password', 'new-pass');
    expect(screen.queryByText(MOVED)).toBeNull();
    type('Password', '');
    fireEvent.click(screen.getByRole('button', { name: 'Forget the stored password' }));
    expect(screen.queryByText(MOVED)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Keep the stored password' }));

    type('Port', '587');
    type('Mail server (SMTP host)', 'smtp.other.example');
    fireEvent.click(screen.getByRole('button', { name: 'Save channel' }));
    await waitFor(() => expect(password.getAttribute('aria-invalid')).toBe('true'));
    expect(
      screen.getByText(/^Enter the password again for the new server smtp\.other\.example:587/),
    ).toBeTruthy();
    expect(inputsOf(fake, 'channels.save')[0]).not.toHaveProperty('secret');
  });

  it('asks for the access token again when the ntfy server changes, not when the topic does', async () => {
    installFake({ channels: [channel()] });
    render(<ChannelsSection />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit My phone' }));
    type('Topic', 'lotwatch-other');
    expect(screen.queryByText(MOVED)).toBeNull();
    type('ntfy server', 'https://ntfy.example.net');
    expect(screen.getByText(MOVED).textContent).toContain('enter the access token again');
  });

  it('says where alerts go for a computer on your own network or this one, and nothing for a public server', async () => {
    installFake();
    render(<ChannelsSection />);
    fireEvent.click(await screen.findByRole('button', { name: 'Email' }));
    type('Mail server (SMTP host)', 'smtp.gmail.com');
    expect(screen.queryByText(/This sends alerts to/)).toBeNull();
    type('Mail server (SMTP host)', '192.168.1.20');
    expect(
      screen.getByText('This sends alerts to a computer on your own network: 192.168.1.20.'),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));

    fireEvent.click(screen.getByRole('button', { name: /^Phone/ }));
    type('ntfy server', 'http://127.0.0.1:8080');
    expect(screen.getByText('This sends alerts to a program on this computer: 127.0.0.1.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));

    fireEvent.click(screen.getByRole('button', { name: /^Webhook/ }));
    type('Webhook address', 'http://10.0.0.7:9000/hook');
    expect(screen.getByText('This sends alerts to a computer on your own network: 10.0.0.7.')).toBeTruthy();
  });
});
