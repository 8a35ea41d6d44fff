// @vitest-environment jsdom
import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  useWatchingState,
  WatchingStateNotice,
  watchingWords,
} from '../../../src/renderer/src/components/WatchingState';
import { quotaSpentSentence } from '../../../src/shared/quota';
import type { WatchingState } from '../../../src/shared/watching';
import { okResult } from '../fakeBridge';
import { installFake, render } from './fakeApi';
import { HOUR, NOW, statusView } from './fixtures';

const END = Date.UTC(2026, 11, 26, 0, 0, 0);

/** The watchlist's banner as the view draws it: the live state, hidden while watching plainly runs. */
function Banner() {
  const state = useWatchingState();
  return <WatchingStateNotice state={state} variant="panel" hideRunning />;
}

describe('the state of watching, drawn', () => {
  it('the banner says a spent quota with its date, and is gone the moment core says watching runs again', async () => {
    const fake = installFake({
      handlers: {
        'status.get': () => okResult(statusView({ watching: { kind: 'quota_spent', until: END } })),
      },
    });
    const { container } = render(<Banner />);
    expect(await screen.findByText('Paused: quota used up')).toBeTruthy();
    expect(container.textContent).toContain(quotaSpentSentence(END));
    act(() => fake.emit({ name: 'watching.changed', payload: { kind: 'running' } }));
    expect(screen.queryByText('Paused: quota used up')).toBeNull();
    expect(container.querySelector('[data-watching]')).toBeNull();
  });

  it('every state has a label and a sentence; the pill carries the sentence for hover and screen readers', () => {
    const states: WatchingState[] = [
      { kind: 'running' },
      { kind: 'paused_by_buyer', until: NOW + HOUR },
      { kind: 'quota_spent', until: END },
      { kind: 'quota_spent', until: null },
      { kind: 'rate_limited', until: NOW + 60_000 },
      { kind: 'offline' },
      { kind: 'key_rejected' },
      { kind: 'no_key' },
    ];
    for (const s of states) {
      const w = watchingWords(s);
      expect(w.label.length, s.kind).toBeGreaterThan(0);
      expect(w.detail, s.kind).toMatch(/\.$/);
    }
    render(<WatchingStateNotice state={{ kind: 'offline' }} variant="pill" />);
    const pill = screen.getByRole('status');
    expect(pill.getAttribute('title')).toBe(watchingWords({ kind: 'offline' }).detail);
    expect(pill.textContent).toContain('cannot be reached');
  });
});
