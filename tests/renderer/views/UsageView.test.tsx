// @vitest-environment jsdom
import { installFake, render } from './fakeApi';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UsageView } from '../../../src/renderer/src/features/usage/UsageView';
import { StatusSchema } from '../../../src/shared/ipc/contract';
import { okResult } from '../fakeBridge';
import { NOW } from './fixtures';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

// Noon UTC on 12 February 2025: the 12th in every time zone a test machine may have.
const END = Date.UTC(2025, 1, 12, 12, 0, 0);

describe('UsageView · a spent monthly quota', () => {
  it('says until which date, once, and never as seconds to wait', async () => {
    installFake({
      settings: { demoMode: false },
      handlers: {
        'status.get': () =>
          okResult(
            StatusSchema.parse({
              mode: 'live',
              key: { set: true, storage: 'the system keychain' },
              quota: { at: NOW, limit: 100, baseLimit: 100, extraLimit: 0, used: 100, remaining: 0, periodStart: null, periodEnd: END, perPageLimit: 20, rateLimit: 3, rateRemaining: 0 },
              budget: { allowedPerDay: 0, spentLast24h: 4, projectedNext24h: 12, basis: 'quota', periodRemaining: 0, periodEnd: END },
              scale: 1,
              running: true,
              paused_until: END,
              pause_reason: "Your plan's monthly requests are used up until 12 February.",
              pause_kind: 'quota_spent',
            }),
          ),
        'requests.list': () => okResult({ rows: [], last24h: 0 }),
      },
    });
    render(<UsageView />);
    const said = await screen.findByText(/^Your plan's monthly requests are used up until 12 February\./);
    expect(said.textContent).toContain('wait until then and start again by themselves');
    expect(screen.getAllByText(/used up until/)).toHaveLength(1);
    expect(document.body.textContent).not.toMatch(/\d{5,} s|seconds/);
    expect(document.querySelector('#usage-quota + .usage-headline')?.textContent).toBe('0 of 100 left until 12 February');
  });
});
