// @vitest-environment jsdom
import { installFake, render } from './fakeApi';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ConsoleView } from '../../../src/renderer/src/features/console/ConsoleView';
import { errResult, okResult } from '../fakeBridge';

afterEach(() => cleanup());

const endpoints = [
  {
    name: 'GET /vehicles/{slugVin}',
    group: 'vehicle-auction' as const,
    path_params: ['slugVin'],
    query_params: [],
    description: 'One vehicle.',
  },
  {
    name: 'GET /vehicles/{slugVin}/history',
    group: 'vehicle-auction' as const,
    path_params: ['slugVin'],
    query_params: ['per_page', 'cursor'],
    description: 'History.',
  },
];

describe('console errors', () => {
  it("a 422 on a bad VIN marks the VIN input with the service's words, and the notice says the status once", async () => {
    const msg = 'The vin field must be 17 characters.';
    installFake({
      handlers: {
        'console.endpoints': () => okResult(endpoints),
        'status.get': () => okResult(null as never),
        'console.call': () =>
          errResult(
            'validation',
            `The auction data service refused part of the request (HTTP 422). VIN: the vin field must be 17 characters.`,
            { fields: { vin: [msg] } },
          ),
      },
    });
    render(<ConsoleView />);
    const input = await screen.findByRole('textbox', { name: /slugVin/ }).catch(() => null);
    const box = input ?? (document.querySelector('input[name="path-slugVin"]') as HTMLInputElement);
    fireEvent.change(box, { target: { value: 'WAUC4' } });
    fireEvent.click(screen.getByRole('button', { name: 'Call' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('HTTP 422');
    expect(alert.textContent).not.toMatch(/marked/);
    // The service calls the {slugVin} path part `vin`: its message sits by that input, marked, and is not listed again.
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(box.closest('label')?.textContent).toContain(msg);
    expect(alert.querySelectorAll('li')).toHaveLength(0);
  });

  it('a refused query parameter is marked on its input', async () => {
    installFake({
      handlers: {
        'console.endpoints': () => okResult(endpoints),
        'status.get': () => okResult(null as never),
        'console.call': () =>
          errResult('bad_input', 'Lots per page: enter a whole number from 1 to 20.', {
            fields: { per_page: ['Enter a whole number from 1 to 20.'] },
          }),
      },
    });
    render(<ConsoleView />);
    fireEvent.click(await screen.findByRole('button', { name: '/vehicles/{slugVin}/history' }));
    fireEvent.change(document.querySelector('input[name="path-slugVin"]')!, {
      target: { value: '12345678' },
    });
    fireEvent.change(document.querySelector('input[name="query-per_page"]')!, { target: { value: '99' } });
    fireEvent.click(screen.getByRole('button', { name: 'Call' }));
    const alert = await screen.findByRole('alert');
    expect(document.querySelector('input[name="query-per_page"]')!.getAttribute('aria-invalid')).toBe('true');
    // Said by its input, not listed again under the notice.
    expect(alert.querySelectorAll('li')).toHaveLength(0);
    expect(screen.getByText('Enter a whole number from 1 to 20.')).toBeTruthy();
  });

  it('an empty path is marked, nothing sent', async () => {
    const fake = installFake({
      handlers: {
        'console.endpoints': () => okResult(endpoints),
        'status.get': () => okResult(null as never),
      },
    });
    render(<ConsoleView />);
    await screen.findByRole('button', { name: 'Call' });
    fireEvent.click(screen.getByRole('button', { name: 'Call' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).not.toMatch(/undefined|null/);
    expect(fake.calls.some((c) => c.method === 'console.call')).toBe(false);
  });
});
