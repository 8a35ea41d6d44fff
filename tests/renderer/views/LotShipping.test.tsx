// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Shipping } from '../../../src/renderer/src/features/lot/Shipping';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import { SHIP_PORTS } from '../../../src/shared/shipping';
import { okResult } from '../fakeBridge';
import { frozenAtNow, inputsOf, installFake, render } from './fakeApi';

frozenAtNow();

/** The shipping table's rows as text (port, then price), top to bottom. */
const tableRows = () =>
  within(screen.getByRole('table', { name: 'Shipping prices' }))
    .getAllByRole('row')
    .map((r) => r.textContent);

describe('Shipping to port', () => {
  it('one Get prices asks for every port and shows the cheapest port beside yours; a port without a price is named', async () => {
    const settings = {
      ...DEFAULT_SETTINGS,
      desk: {
        ...DEFAULT_SETTINGS.desk,
        port: 'Savannah',
        destinations: [{ port: 'Baltimore', country: 'Nigeria', ocean_freight_usd: 1100, duty_percent: 35 }],
      },
    };
    const fake = installFake({
      handlers: {
        'settings.get': () => okResult(settings),
        'shipping.get': () =>
          okResult({
            prices: [
              { port: 'LA', price: 720, currency: 'USD' },
              { port: 'Houston', price: 1100, currency: 'USD' },
            ],
            unpriced: ['Savannah', 'Baltimore'],
          }),
      },
    });
    render(<Shipping lotNumber="50314744" vin="1HGCM82633A004352" lotKey="copart:50314744" />);
    const button = await screen.findByRole('button', { name: 'Get prices' });
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(button);
    await screen.findByRole('table', { name: 'Shipping prices' });
    const asked = inputsOf(fake, 'shipping.get');
    expect(asked).toHaveLength(1);
    // Every documented port, the buyer's port and the destination's port, in one request.
    expect(asked[0]).toEqual({
      endpoint: 'vehicle',
      id: '1HGCM82633A004352',
      ports: [...SHIP_PORTS, 'Baltimore'],
      lot_key: 'copart:50314744',
    });
    // Cheapest among the ports with a destination row: Baltimore has none priced, so no port qualifies.
    const compare = screen.getByRole('group', { name: 'Cheapest port and your port' });
    expect(compare.textContent).toContain('Your port');
    expect(compare.textContent).toContain('Savannah no price');
    expect(screen.getByRole('note').textContent).toBe('No price for Savannah, Baltimore.');
  });

  it('shows the kept prices before any request, the cheapest port (Los Angeles $720) beside Savannah $1,570', async () => {
    installFake();
    render(
      <Shipping
        lotNumber="50314744"
        vin={null}
        kept={[
          { port: 'Savannah', price_usd: 1570, currency: 'USD' },
          { port: 'LA', price_usd: 720, currency: 'USD' },
          { port: 'Moto_ATV', price_usd: null, currency: null },
        ]}
      />,
    );
    const compare = await screen.findByRole('group', { name: 'Cheapest port and your port' });
    expect(compare.textContent).toContain('Cheapest portLos Angeles $720');
    expect(compare.textContent).toContain('Your portSavannah $1,570');
    expect(tableRows()).toEqual(['Los Angeles$720', 'Savannah$1,570']);
    expect(screen.getByRole('note').textContent).toBe('No price for Moto/ATV.');
  });

  it('lists the Moto/ATV rate after the ports, named as a rate, even when it is the lowest figure', async () => {
    installFake();
    render(
      <Shipping
        lotNumber="39154735"
        vin={null}
        kept={[
          { port: 'Chicago', price_usd: 415, currency: 'USD' },
          { port: 'Moto_ATV', price_usd: 250, currency: 'USD' },
          { port: 'Savannah', price_usd: 920, currency: 'USD' },
        ]}
      />,
    );
    const compare = await screen.findByRole('group', { name: 'Cheapest port and your port' });
    expect(compare.textContent).toContain('Cheapest portChicago $415');
    expect(tableRows()).toEqual([
      'Chicago$415',
      'Savannah$920',
      'Moto/ATV rate, motorcycles and ATVs only$250',
    ]);
  });
});
