// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { BackupsSection } from '../../../src/renderer/src/features/settings/BackupsSection';
import type { MethodOutput } from '../../../src/shared/ipc/contract';
import { errResult, okResult } from '../fakeBridge';
import { frozenAtNow, inputsOf, installFake, render } from './fakeApi';
import { NOW } from './fixtures';

// Settings, Backups: the daily copies with a Restore button each, a confirm step reachable by keyboard, and what the
// buyer must do after choosing one (quit and reopen).

frozenAtNow('#/settings');

const FOLDER = '/home/u/.config/lotwatch/backups';
const backup = (date: string, size: number) => ({
  name: `lotwatch-${date}.sqlite`,
  date,
  size,
  path: `${FOLDER}/lotwatch-${date}.sqlite`,
  created_at: Date.parse(`${date}T00:05:00Z`),
});

function mount(
  list: () => MethodOutput<'backups.list'>,
  restore = vi.fn((i: unknown) =>
    okResult({ pending: { source: (i as { name: string }).name, requested_at: NOW } }),
  ),
) {
  const fake = installFake({
    handlers: {
      'backups.list': () => okResult(list()),
      'backups.restore': (i) => restore(i),
    },
  });
  render(<BackupsSection />);
  return { fake, restore };
}

describe('Settings · Backups', () => {
  it("on a team's PostgreSQL server, says to use the server's own backups and offers no Restore", async () => {
    installFake({
      handlers: {
        'backups.list': () => okResult({ folder: FOLDER, backups: [backup('2026-11-22', 1)], pending: null }),
      },
    });
    render(<BackupsSection onServer />);
    expect(await screen.findByText(/keeps its data on a team's PostgreSQL server/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Restore/ })).toBeNull();
    expect(screen.queryByText(/copies its data file once a day/)).toBeNull();
  });

  it('lists the backups newest first with day and size, and where they are', async () => {
    mount(() => ({
      folder: FOLDER,
      backups: [backup('2026-11-22', 4_200_000), backup('2026-11-21', 4_100_000)],
      pending: null,
    }));
    const section = screen.getByRole('group', { name: 'Backups' });
    const table = await within(section).findByRole('table', { name: 'Backups' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      'Sun, Nov 22, 20264.2 MBRestore…',
      'Sat, Nov 21, 20264.1 MBRestore…',
    ]);
    expect(section.textContent).toContain(`keeps the last 7, in ${FOLDER}`);
  });

  it('says when there is no backup yet', async () => {
    mount(() => ({ folder: FOLDER, backups: [], pending: null }));
    expect(
      await screen.findByText('No backups yet: the first is taken a minute after Lotwatch starts.'),
    ).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('asks before restoring; Cancel (or Escape) restores nothing and gives the focus back to the row', async () => {
    const { fake } = mount(() => ({
      folder: FOLDER,
      backups: [backup('2026-11-22', 4_200_000)],
      pending: null,
    }));
    const button = await screen.findByRole('button', { name: 'Restore the backup of Sun, Nov 22, 2026' });
    fireEvent.click(button);
    const confirm = screen.getByRole('group', { name: 'Confirm the restore' });
    expect(confirm.textContent).toContain("Replace Lotwatch's data with the backup of Sun, Nov 22, 2026?");
    expect(confirm.textContent).toContain('the current data file is kept beside it, not deleted');
    // The confirm button has the focus, so Enter confirms and Escape cancels.
    expect(document.activeElement).toBe(within(confirm).getByRole('button', { name: 'Restore this backup' }));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('group', { name: 'Confirm the restore' })).toBeNull();
    expect(document.activeElement).toBe(button);
    fireEvent.click(button);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('group', { name: 'Confirm the restore' })).toBeNull();
    expect(inputsOf(fake, 'backups.restore')).toEqual([]);
  });

  it('restores on confirm, then says to quit and reopen Lotwatch', async () => {
    let pending: MethodOutput<'backups.list'>['pending'] = null;
    const { fake } = mount(
      () => ({ folder: FOLDER, backups: [backup('2026-11-22', 4_200_000)], pending }),
      vi.fn((i: unknown) => {
        pending = { source: (i as { name: string }).name, requested_at: NOW };
        return okResult({ pending });
      }),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Restore the backup of Sun, Nov 22, 2026' }));
    fireEvent.click(screen.getByRole('button', { name: 'Restore this backup' }));
    const status = await screen.findByRole('status');
    expect(status.textContent).toBe(
      'Restore ready: lotwatch-2026-11-22.sqlite. Quit Lotwatch and open it again to finish; the backup then replaces the current data, which is kept beside it.',
    );
    expect(inputsOf(fake, 'backups.restore')).toEqual([{ name: 'lotwatch-2026-11-22.sqlite' }]);
  });

  it('shows why a backup cannot be restored, and nothing is pending', async () => {
    mount(
      () => ({ folder: FOLDER, backups: [backup('2026-11-22', 4_200_000)], pending: null }),
      vi.fn(() =>
        errResult(
          'bad_input',
          "The backup /x/lotwatch-2026-11-22.sqlite cannot be restored: SQLite's integrity check failed (Tree 2 page 2). Nothing was changed; choose an older backup.",
        ),
      ),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Restore the backup of Sun, Nov 22, 2026' }));
    fireEvent.click(screen.getByRole('button', { name: 'Restore this backup' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('cannot be restored');
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Confirm the restore' })).toBeNull());
    expect(screen.queryByRole('status')).toBeNull();
  });
});
