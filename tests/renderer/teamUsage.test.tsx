// @vitest-environment jsdom
import { frozenAtNow, installFake, render } from './views/fakeApi';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { UsageView } from '../../src/renderer/src/features/usage/UsageView';
import { MeProvider, type TeamMe } from '../../src/renderer/src/team/me';
import { memberShares } from '../../src/renderer/src/team/UsageByMember';
import { RequestLogRowSchema } from '../../src/shared/ipc/contract';
import { okResult } from './fakeBridge';
import { MINUTE, NOW, statusView } from './views/fixtures';

frozenAtNow();

const ME: TeamMe = { team: true, user: { id: 2, login: 'dana', name: 'Dana Lee', role: 'buyer' } };
const MONTH = Date.UTC(2025, 0, 1);

const BY_USER = {
  since: MONTH,
  until: Date.UTC(2025, 1, 1),
  rows: [
    { user_id: null, name: 'The watcher', requests: 1_130 },
    { user_id: 2, name: 'Dana Lee', requests: 312 },
    { user_id: 3, name: 'Sam Ortiz', requests: 58 },
  ],
};

const logRow = (at: number, user_name: string | null) =>
  RequestLogRowSchema.parse({
    at,
    endpoint: 'GET /vehicles',
    status: 200,
    duration_ms: 180,
    bytes: 2048,
    attempt: 1,
    error_code: null,
    user_name,
  });

function renderUsage(me?: TeamMe) {
  const fake = installFake({
    handlers: {
      'status.get': () => okResult(statusView()),
      'usage.byUser': () => okResult(BY_USER),
      'requests.list': () =>
        okResult({ rows: [logRow(NOW - MINUTE, 'Dana Lee'), logRow(NOW - 2 * MINUTE, null)], last24h: 2 }),
    },
  });
  render(
    me ? (
      <MeProvider me={me}>
        <UsageView />
      </MeProvider>
    ) : (
      <UsageView />
    ),
  );
  return fake;
}

describe('memberShares', () => {
  it('orders by requests, says each share in whole percents, "< 1 %" for a few, "–" when none', () => {
    expect(memberShares(BY_USER.rows).map((r) => [r.name, r.requests, r.share])).toEqual([
      ['The watcher', 1130, '75 %'],
      ['Dana Lee', 312, '21 %'],
      ['Sam Ortiz', 58, '4 %'],
    ]);
    expect(
      memberShares([
        { user_id: 1, name: 'Ada', requests: 999 },
        { user_id: 2, name: 'Bo', requests: 1 },
      ]).map((r) => r.share),
    ).toEqual(['100 %', '< 1 %']);
    expect(memberShares([{ user_id: null, name: 'The watcher', requests: 0 }])[0]!.share).toBe('–');
  });
});

describe('Usage on a team', () => {
  it('shows requests this month by member, with each share of the total', async () => {
    renderUsage(ME);
    const table = await screen.findByRole('table', { name: 'Requests this month by member' });
    const rows = within(table)
      .getAllByRole('row')
      .map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent));
    expect(rows).toEqual([
      ['Member', 'Requests', 'Share'],
      ['The watcher', '1,130', '75 %'],
      ['Dana Lee', '312', '21 %'],
      ['Sam Ortiz', '58', '4 %'],
      ['All', '1,500', '100 %'],
    ]);
    expect(screen.getByText('Since 1 January 2025')).toBeTruthy();
  });

  it('says who spent each request in the log: the member, or the watcher', async () => {
    renderUsage(ME);
    const log = (await screen.findByText('Who')).closest('table')!;
    const cells = within(log)
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.querySelector('.usage-who')?.textContent);
    expect(cells).toEqual(['Dana Lee', 'The watcher']);
  });

  it('shows neither on the desktop, and asks nothing more', async () => {
    const fake = renderUsage();
    await screen.findByText('Request log');
    await screen.findAllByText('GET /vehicles');
    expect(screen.queryByText('Requests this month by member')).toBeNull();
    expect(screen.queryByText('Who')).toBeNull();
    expect(fake.calls.some((c) => (c.method as string) === 'usage.byUser')).toBe(false);
  });

  it("keeps the team's pause to its admins: a buyer sees the buttons off and why, an admin can pause", async () => {
    renderUsage(ME);
    const pause = await screen.findByRole('button', { name: 'Pause for 1 hour' });
    expect((pause as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText("Only an admin can pause or resume the team's watching.")).toBeTruthy();
  });

  it('lets an admin pause the team’s watching', async () => {
    renderUsage({ team: true, user: { id: 1, login: 'alex', name: 'Alex', role: 'admin' } });
    expect(
      (await screen.findByRole<HTMLButtonElement>('button', { name: 'Pause for 1 hour' })).disabled,
    ).toBe(false);
    expect(screen.queryByText("Only an admin can pause or resume the team's watching.")).toBeNull();
  });
});
