// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  LEAVE_QUESTION,
  TeamServerSection,
} from '../../src/renderer/src/features/settings/TeamServerSection';
import type { TeamLinkState } from '../../src/shared/ipc/contract/teamLink';
import { errResult, okResult, type FakeHandlers } from './fakeBridge';
import { frozenAtNow, inputsOf, installFake, render } from './views/fakeApi';

frozenAtNow();

const SERVER = 'https://lotwatch.example.com';
const OUT: TeamLinkState = {
  available: true,
  joined: false,
  server: null,
  login: null,
  user: null,
  signed_in: false,
};
const IN: TeamLinkState = {
  available: true,
  joined: true,
  server: SERVER,
  login: 'dana',
  user: { id: 2, login: 'dana', name: 'Dana Lee', role: 'buyer' },
  signed_in: true,
};

function renderSection(state: TeamLinkState, handlers: FakeHandlers = {}) {
  const fake = installFake({ handlers: { 'teamLink.get': () => okResult(state), ...handlers } });
  render(<TeamServerSection />);
  return fake;
}

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

/** Fills the join form and submits it (as Enter in a field does). */
async function fillAndJoin(password = 'dana password!') {
  const form = await screen.findByRole('form', { name: 'Join a team server' });
  type('Address', SERVER);
  type('Login', 'dana');
  type('Password', password);
  fireEvent.submit(form);
}

describe('Settings, Team server', () => {
  it('is not shown where there is no link to a team server (a browser page)', async () => {
    const fake = renderSection({ ...OUT, available: false });
    await waitFor(() => expect(inputsOf(fake, 'teamLink.get')).toHaveLength(1));
    await act(async () => {});
    expect(screen.queryByRole('group', { name: 'Team server' })).toBeNull();
    expect(screen.queryByText('Team server')).toBeNull();
  });

  it('joins with the address, the login and the password, then says whose team it uses', async () => {
    const fake = renderSection(OUT, { 'teamLink.join': () => okResult(IN) });
    await fillAndJoin();
    expect(await screen.findByText(/as Dana Lee \(Buyer\)\./)).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe(`Using ${SERVER} as Dana Lee (Buyer).`);
    expect(inputsOf(fake, 'teamLink.join')).toEqual([
      { server: SERVER, login: 'dana', password: 'dana password!' },
    ]);
    expect(screen.getByRole('button', { name: 'Leave team' })).toBeTruthy();
  });

  it('says a refusal plainly, a wait when throttled, and a bad address beside its field', async () => {
    const answers = [
      errResult('unauthorized', 'The login or the password is not right. Check both and try again.'),
      errResult('rate_limited', 'Too many failed sign-ins. Wait 42 seconds, then try again.', {
        retryable: true,
      }),
      errResult('bad_input', 'Address: enter the team server address only.', {
        fields: { server: ['Address: enter the team server address only.'] },
      }),
    ];
    renderSection(OUT, { 'teamLink.join': () => answers.shift()! });
    await fillAndJoin('wrong');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The login or the password is not right. Check both and try again.',
    );
    // The password is asked again; the address and login stay.
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Login') as HTMLInputElement).value).toBe('dana');
    await fillAndJoin('wrong again');
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        'Too many failed sign-ins. Wait 42 seconds, then try again.',
      ),
    );
    await fillAndJoin();
    const address = await screen.findByLabelText('Address');
    await waitFor(() => expect(address.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById('team-link-server-error')!.textContent).toBe(
      'Address: enter the team server address only.',
    );
  });

  it('asks before leaving, and leaves only when confirmed', async () => {
    const fake = renderSection(IN, { 'teamLink.leave': () => okResult(OUT) });
    fireEvent.click(await screen.findByRole('button', { name: 'Leave team' }));
    const question = screen.getByRole('group', { name: LEAVE_QUESTION });
    expect(question.textContent).toContain(
      'Your own watchlist and alerts on this computer come back as you left them.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(inputsOf(fake, 'teamLink.leave')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Leave team' }));
    fireEvent.click(
      screen.getAllByRole('button', { name: 'Leave team' }).find((b) => b.className.includes('danger'))!,
    );
    expect(await screen.findByRole('form', { name: 'Join a team server' })).toBeTruthy();
    expect(inputsOf(fake, 'teamLink.leave')).toHaveLength(1);
  });

  it('offers the sign-in again once the team server ended the session', async () => {
    const fake = renderSection({ ...IN, signed_in: false }, { 'teamLink.join': () => okResult(IN) });
    const form = await screen.findByRole('form', { name: 'Sign in to the team server again' });
    expect(form.textContent).toContain(`Your session on ${SERVER} ended.`);
    expect(screen.queryByLabelText('Address')).toBeNull();
    type('Password', 'dana password!');
    fireEvent.submit(form);
    expect(await screen.findByText(/as Dana Lee \(Buyer\)\./)).toBeTruthy();
    expect(inputsOf(fake, 'teamLink.join')).toEqual([
      { server: SERVER, login: 'dana', password: 'dana password!' },
    ]);
  });
});
