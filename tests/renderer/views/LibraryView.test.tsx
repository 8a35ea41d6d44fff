// @vitest-environment jsdom
import { inputsOf, installFake, render } from './fakeApi';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LibraryView } from '../../../src/renderer/src/features/library/LibraryView';
import { okResult } from '../fakeBridge';
import { lotSummary } from './fixtures';

afterEach(cleanup);

describe('LibraryView · the search box', () => {
  it('says beside the box that -word leaves out, OR finds either and quotes keep words together', async () => {
    installFake({ handlers: { 'library.search': () => okResult({ lots: [lotSummary()], total: 1 }) } });
    render(<LibraryView />);
    const box = await screen.findByRole('searchbox', { name: 'Search the library' });
    const hintId = box.getAttribute('aria-describedby');
    expect(hintId).toBeTruthy();
    const hint = document.getElementById(hintId!)?.textContent ?? '';
    expect(hint).toContain('-word to leave out');
    expect(hint).toContain('OR for either');
    expect(hint).toContain('"model 3" in quotes');
  });

  it('sends the text as typed, -word, OR and quotes included, for core to read', async () => {
    const fake = installFake({ handlers: { 'library.search': () => okResult({ lots: [], total: 0 }) } });
    render(<LibraryView />);
    fireEvent.change(await screen.findByRole('searchbox', { name: 'Search the library' }), {
      target: { value: 'camry OR corolla -salvage "le 4dr"' },
    });
    await waitFor(() =>
      expect(inputsOf(fake, 'library.search').map((i) => i?.q)).toContain(
        'camry OR corolla -salvage "le 4dr"',
      ),
    );
    expect(
      await screen.findByText('Nothing stored matches “camry OR corolla -salvage "le 4dr"”'),
    ).toBeTruthy();
  });
});
