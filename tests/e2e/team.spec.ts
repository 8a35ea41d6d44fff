import type { Browser, Page } from '@playwright/test';
import { pgBinDir, PG_MISSING } from '../../src/headless/pgCluster';
import { startTeamDemo, type TeamDemo } from '../../src/headless/teamDemo';
import { teamCall, teamSignIn } from '../../src/shared/teamClient';
import { expect, test } from './fixtures';
import { AlertsPage } from './pages/AlertsPage';
import { AppFrame } from './pages/AppFrame';
import { SignInPage } from './pages/SignInPage';
import { WatchlistPage } from './pages/WatchlistPage';

// A team in two browsers (docs/team.md): the team demo's two servers on one PostgreSQL database, Blair signed in on
// the first and Casey on the second, each in a browser context of their own. Blair watches a lot; Casey, on the other
// server, sees it in the same watchlist with "by Blair". Each has their own inbox: Blair reading every alert leaves
// Casey's unread as they were. The market is a stepped Demo market on both servers, moved by the test.

test.describe.configure({ mode: 'serial' });
// Without PostgreSQL (Debian's `postgresql`, which .ci/run installs) there is no team: skipped, saying why.
test.skip(!pgBinDir(), PG_MISSING);
test.skip(
  () => test.info().project.name !== 'headless-chromium',
  "the team journey is two browsers' (the desktop app on a team: tests/shell/electronTeam.test.ts)",
);

let demo: TeamDemo;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  demo = await startTeamDemo('out/main/headless.js', {
    serverArgs: ['--demo-control', '--demo-clock', 'stepped'],
  });
});
test.afterAll(async () => {
  await demo?.stop();
});

/** Moves both servers' Demo markets by `ms` (the watcher's due work runs on the one that holds it). */
async function stepMarket(ms: number): Promise<void> {
  for (let moved = 0; moved < ms; moved += 5 * 60_000)
    await Promise.all(
      demo.demoUrls.map(async (u) => {
        const r = await fetch(`${u}/__sandbox/clock`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ advance_ms: 5 * 60_000 }),
        });
        if (!r.ok) throw new Error(`stepping ${u}: ${r.status}`);
      }),
    );
}

async function signedIn(browser: Browser, url: string, login: string, width = 1366): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  const page = await context.newPage();
  await page.goto(url);
  const signIn = new SignInPage(page);
  await expect(signIn.heading).toBeVisible();
  const m = demo.members.find((x) => x.login === login)!;
  await signIn.signIn(m.login, m.password);
  await expect(new AppFrame(page).nav).toBeVisible();
  return page;
}

const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`) });

test('two buyers on two servers share one watchlist and keep their own inboxes', async ({ browser }) => {
  test.setTimeout(240_000);
  // The sign-in screen, and a wrong password's uniform refusal.
  const first = await browser.newContext({ viewport: { width: 1366, height: 800 } });
  const signInPage = await first.newPage();
  await signInPage.goto(demo.urls[0]);
  const signIn = new SignInPage(signInPage);
  await signIn.signIn('blair', 'not the password');
  await expect(signIn.refusal).toContainText('The login or the password is not right.');
  await shot(signInPage, 'team-sign-in');
  await first.close();

  const blair = await signedIn(browser, demo.urls[0], 'blair');
  const casey = await signedIn(browser, demo.urls[1], 'casey', 1024);

  // Blair watches a lot of the Demo market (found through the team's key, as Blair).
  const b = demo.members.find((m) => m.login === 'blair')!;
  const session = await teamSignIn(demo.urls[0], b.login, b.password);
  const found = await teamCall(session, 'vehicles.search', { params: {} });
  expect(found.ok ? null : found.error).toBeNull();
  const lot = (found as { value: { lots: { lot_number: string }[] } }).value.lots[5]!.lot_number;
  const blairWatch = new WatchlistPage(blair);
  await blairWatch.open();
  await blairWatch.add(lot);
  await expect(blairWatch.row(lot)).toBeVisible();

  // Casey, on the other server, sees the same watch with its owner.
  const caseyWatch = new WatchlistPage(casey);
  await caseyWatch.open();
  await expect(caseyWatch.row(lot)).toContainText('by Blair');
  await expect(blairWatch.row(lot)).toContainText('by you');
  await shot(casey, 'team-watchlist-owners-1024');
  await shot(blair, 'team-watchlist-owners-1366');

  // The market moves; the watcher (on whichever server holds it) raises alerts for both.
  await stepMarket(90 * 60_000);
  const frameB = new AppFrame(blair);
  const frameC = new AppFrame(casey);
  await expect(frameB.alertsLinkWithUnread()).toBeVisible({ timeout: 30_000 });
  await expect(frameC.alertsLinkWithUnread()).toBeVisible({ timeout: 30_000 });
  const caseyUnread = await frameC.alertsLinkWithUnread().getAttribute('aria-label');

  // Blair reads everything; Casey's inbox is untouched.
  const alertsB = new AlertsPage(blair);
  await alertsB.open();
  await alertsB.markAllReadButton.click();
  await expect(alertsB.allRead).toBeVisible();
  await expect(frameB.navLink('Alerts')).toHaveAccessibleName('Alerts');
  await casey.reload();
  await expect(frameC.alertsLinkWithUnread()).toBeVisible();
  expect(await frameC.alertsLinkWithUnread().getAttribute('aria-label')).toBe(caseyUnread);

  // Usage per member: who spent the team's requests.
  await frameC.open('Usage');
  await expect(casey.getByRole('table', { name: /by member/i })).toContainText('Blair');
  await shot(casey, 'team-usage-per-member');
});
