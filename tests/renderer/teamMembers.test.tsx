// @vitest-environment jsdom
import { frozenAtNow, inputsOf, installFake, render } from './views/fakeApi';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MembersSection } from '../../src/renderer/src/team/MembersSection';
import { MeProvider, NO_TEAM, type TeamMe } from '../../src/renderer/src/team/me';
import { WhoAmI } from '../../src/renderer/src/team/WhoAmI';
import type { TeamMember } from '../../src/shared/ipc/contract/team';
import { METHOD_ROLES } from '../../src/shared/team';
import { errResult, okResult } from './fakeBridge';
import { HOUR, NOW } from './views/fixtures';

frozenAtNow();

const ADA: TeamMember = {
  id: 1,
  login: 'ada',
  name: 'Ada Park',
  role: 'admin',
  disabled: false,
  created_at: NOW - 900 * HOUR,
  last_sign_in_at: NOW - 2 * HOUR,
};
const DANA: TeamMember = {
  ...ADA,
  id: 2,
  login: 'dana',
  name: 'Dana Lee',
  role: 'buyer',
  last_sign_in_at: null,
};
const SAM: TeamMember = { ...ADA, id: 3, login: 'sam', name: 'Sam Ortiz', role: 'viewer', disabled: true };

const as = (m: TeamMember): TeamMe => ({
  team: true,
  user: { id: m.id, login: m.login, name: m.name, role: m.role },
});

function renderMembers(me: TeamMe, users: TeamMember[] = [ADA, DANA, SAM]) {
  const fake = installFake({
    handlers: {
      'team.users.list': () => okResult({ users }),
      'team.users.create': (i) =>
        okResult({ user: { ...DANA, id: 9, login: i!.login, name: i!.name, role: i!.role } }),
      'team.users.update': (i) => okResult({ user: { ...SAM, disabled: i!.disabled ?? SAM.disabled } }),
      'team.users.resetPassword': () => okResult({ ok: true }),
    },
  });
  render(
    <MeProvider me={me}>
      <MembersSection />
    </MeProvider>,
  );
  return fake;
}

const type = (label: string | RegExp, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('Settings, Team members', () => {
  it('lists the members for an admin: login, name, role, disabled, last sign-in', async () => {
    renderMembers(as(ADA));
    const table = await screen.findByRole('table', { name: 'Team members' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.getAttribute('aria-label'))).toEqual(['Ada Park', 'Dana Lee', 'Sam Ortiz']);
    expect(within(rows[0]!).getByText('(you)')).toBeTruthy();
    expect(within(rows[0]!).getByText('2 hours ago')).toBeTruthy();
    expect(within(rows[1]!).getByText('dana')).toBeTruthy();
    expect(within(rows[1]!).getByText('Buyer')).toBeTruthy();
    expect(within(rows[1]!).getByText('Never')).toBeTruthy();
    expect(within(rows[2]!).getByText('Disabled')).toBeTruthy();
    expect(within(rows[2]!).getByRole('button', { name: 'Enable Sam Ortiz' })).toBeTruthy();
  });

  it('offers an admin every action on the others, and on their own row says why not', async () => {
    renderMembers(as(ADA));
    await screen.findByRole('table', { name: 'Team members' });
    for (const name of ['Change role of Dana Lee', 'Disable', 'Reset password of Dana Lee', 'Add member']) {
      const b = screen.getAllByRole('button', { name }).find((x) => !(x as HTMLButtonElement).disabled);
      expect(b, name).toBeTruthy();
    }
    const own = screen.getByRole('button', { name: 'Change role of Ada Park' }) as HTMLButtonElement;
    expect(own.disabled).toBe(true);
    expect(own.title).toBe('You cannot change your own role or disable your own account; another admin can.');
    expect((screen.getByRole('button', { name: 'Disable Ada Park' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    // An admin may reset their own password here too (they know it: Change password is theirs as well).
    expect(
      (screen.getByRole('button', { name: 'Reset password of Ada Park' }) as HTMLButtonElement).disabled,
    ).toBe(false);
  });

  it('tells a buyer or a viewer who can manage members, and never asks for the list', async () => {
    expect(METHOD_ROLES['team.users.list']).toBe('admin');
    const fake = renderMembers(as(DANA));
    expect(
      screen.getByText(
        /Only an admin can see and manage the team's members\. You are signed in as a buyer\./,
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add member' })).toBeNull();
    expect(inputsOf(fake, 'team.users.list')).toEqual([]);
  });

  it('shows nothing outside a team', () => {
    const fake = renderMembers(NO_TEAM);
    expect(screen.queryByText('Team members')).toBeNull();
    expect(fake.calls).toEqual([]);
  });

  it('adds a member with a login, a name, a role and a first password', async () => {
    const fake = renderMembers(as(ADA));
    await screen.findByRole('table', { name: 'Team members' });
    fireEvent.click(screen.getByRole('button', { name: 'Add member' }));
    const form = screen.getByRole('form', { name: 'Add member' });
    await waitFor(() => expect(document.activeElement).toBe(within(form).getByLabelText('Login')));
    type('Login', 'lee');
    type('Name', 'Lee Chan');
    fireEvent.change(within(form).getByLabelText('Role'), { target: { value: 'viewer' } });
    expect(within(form).getByText('Viewer: reads everything and keeps their own inbox.')).toBeTruthy();
    type(/First password/, 'a first password');
    fireEvent.submit(form);
    await screen.findByText('Added Lee Chan as a viewer.');
    expect(inputsOf(fake, 'team.users.create')).toEqual([
      { login: 'lee', name: 'Lee Chan', role: 'viewer', password: 'a first password' },
    ]);
  });

  it("shows the server's field messages next to the fields and keeps what was typed", async () => {
    const fake = installFake({
      handlers: {
        'team.users.list': () => okResult({ users: [ADA] }),
        'team.users.create': () =>
          errResult('bad_input', 'invalid', {
            fields: { password: ['Password: use at least 10 characters.'] },
          }),
      },
    });
    render(
      <MeProvider me={as(ADA)}>
        <MembersSection />
      </MeProvider>,
    );
    await screen.findByRole('table', { name: 'Team members' });
    fireEvent.click(screen.getByRole('button', { name: 'Add member' }));
    type('Login', 'lee');
    type('Name', 'Lee Chan');
    type(/First password/, 'short');
    fireEvent.submit(screen.getByRole('form', { name: 'Add member' }));
    expect(await screen.findByText('Password: use at least 10 characters.')).toBeTruthy();
    expect((screen.getByLabelText('Login') as HTMLInputElement).value).toBe('lee');
    expect(inputsOf(fake, 'team.users.create')).toHaveLength(1);
  });

  it('changes a role, resets a password, and disables a member after asking', async () => {
    const fake = renderMembers(as(ADA));
    await screen.findByRole('table', { name: 'Team members' });
    fireEvent.click(screen.getByRole('button', { name: 'Change role of Dana Lee' }));
    const roleForm = screen.getByRole('form', { name: 'Change role · Dana Lee' });
    fireEvent.change(within(roleForm).getByLabelText('Role'), { target: { value: 'admin' } });
    fireEvent.submit(roleForm);
    await screen.findByText('Dana Lee is now an admin.');
    expect(inputsOf(fake, 'team.users.update')).toEqual([{ id: 2, role: 'admin' }]);

    fireEvent.click(screen.getByRole('button', { name: 'Reset password of Dana Lee' }));
    const pwForm = screen.getByRole('form', { name: 'Reset password · Dana Lee' });
    fireEvent.change(within(pwForm).getByLabelText(/New password/), {
      target: { value: 'a new long password' },
    });
    fireEvent.submit(pwForm);
    await screen.findByText(/New password set for Dana Lee/);
    expect(inputsOf(fake, 'team.users.resetPassword')).toEqual([{ id: 2, password: 'a new long password' }]);

    const danaRow = screen.getByRole('row', { name: 'Dana Lee' });
    fireEvent.click(within(danaRow).getByRole('button', { name: 'Disable' }));
    fireEvent.click(within(danaRow).getByRole('button', { name: 'Disable' }));
    await screen.findByText(/Dana Lee is disabled/);
    expect(inputsOf(fake, 'team.users.update')).toEqual([
      { id: 2, role: 'admin' },
      { id: 2, disabled: true },
    ]);
  });
});

describe('who is signed in', () => {
  it('names the member and role in a menu with Change password and Sign out', async () => {
    const fake = installFake({ handlers: { 'team.password.change': () => okResult({ ok: true }) } });
    let signedOut = 0;
    render(
      <MeProvider me={as(DANA)}>
        <WhoAmI signOut={async () => void signedOut++} />
      </MeProvider>,
    );
    const button = screen.getByRole('button', { name: 'Signed in as Dana Lee (dana), Buyer' });
    fireEvent.click(button);
    expect(screen.getAllByRole('menuitem').map((m) => m.textContent)).toEqual([
      'Change password',
      'Sign out',
    ]);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Change password' }));
    const dialog = screen.getByRole('dialog', { name: 'Change password' });
    await waitFor(() =>
      expect(document.activeElement).toBe(within(dialog).getByLabelText('Current password')),
    );
    fireEvent.change(within(dialog).getByLabelText('Current password'), {
      target: { value: 'old password 1' },
    });
    fireEvent.change(within(dialog).getByLabelText(/^New password \(/), {
      target: { value: 'new password 22' },
    });
    fireEvent.change(within(dialog).getByLabelText('New password again'), {
      target: { value: 'new password 2' },
    });
    fireEvent.submit(dialog.querySelector('form')!);
    expect(await within(dialog).findByText(/The two new passwords differ/)).toBeTruthy();
    expect(inputsOf(fake, 'team.password.change')).toEqual([]);
    fireEvent.change(within(dialog).getByLabelText('New password again'), {
      target: { value: 'new password 22' },
    });
    fireEvent.submit(dialog.querySelector('form')!);
    await within(dialog).findByText(/Password changed/);
    expect(inputsOf(fake, 'team.password.change')).toEqual([
      { current: 'old password 1', next: 'new password 22' },
    ]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));

    fireEvent.click(button);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Sign out' }));
    await waitFor(() => expect(signedOut).toBe(1));
  });

  it('is not there outside a team', () => {
    installFake();
    render(
      <MeProvider me={NO_TEAM}>
        <WhoAmI signOut={async () => {}} />
      </MeProvider>,
    );
    expect(screen.queryByRole('button', { name: /Signed in as/ })).toBeNull();
  });
});
