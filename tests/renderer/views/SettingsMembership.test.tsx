// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createAppStore } from '../../../src/renderer/src/app/appStore';
import { SettingsView } from '../../../src/renderer/src/features/settings/SettingsView';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import { frozenAtNow, inputsOf, installFake, render } from './fakeApi';

frozenAtNow('#/settings');

// Settings holds the buyer's membership per platform, not a fee table: each lot's title document picks the table.
describe('SettingsView · membership', () => {
  it('lists the memberships per platform, says which fees are not known, and saves the choice', async () => {
    const fake = installFake({ settings: { demoMode: true } });
    const store = createAppStore(fake.bridge);
    await act(() => store.getState().load());
    render(<SettingsView store={store} />);
    const costs = await screen.findByRole('group', { name: 'Costs: landed cost and max bid' });
    const copart = within(costs).getByRole('combobox', { name: /Copart membership/ }) as HTMLSelectElement;
    const iaai = within(costs).getByRole('combobox', { name: /IAAI membership/ }) as HTMLSelectElement;
    expect(copart.value).toBe(DEFAULT_SETTINGS.desk.membership.copart);
    expect([...copart.options].map((o) => o.textContent)).toEqual([
      'Non-licensed (standard), secured payment (wire transfer, debit card)',
      'Non-licensed (standard), unsecured payment (credit card, PayPal)',
      'Licensed business (fees not known)',
    ]);
    expect([...iaai.options].map((o) => o.textContent)).toEqual([
      'Licensed, standard volume',
      'Licensed, high volume (25+ units and $75,000+ a year)',
      'Non-licensed / public (fees not known)',
    ]);
    expect(costs.textContent).toContain('a lot without a known title document pays the stricter table');

    fireEvent.change(iaai, { target: { value: 'public' } });
    expect(costs.textContent).toContain(
      'Lotwatch has no published IAAI fee table for this membership: its lots get no landed cost or max bid.',
    );
    fireEvent.change(copart, { target: { value: 'standard_unsecured' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await screen.findByText('Saved.');
    expect(inputsOf(fake, 'settings.update')).toEqual([
      expect.objectContaining({
        desk: expect.objectContaining({ membership: { copart: 'standard_unsecured', iaai: 'public' } }),
      }),
    ]);
  });
});
