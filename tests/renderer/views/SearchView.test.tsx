// @vitest-environment jsdom
import { frozenAtNow, inputsOf, installFake, render, testStore } from './fakeApi';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { MethodInput } from '../../../src/shared/ipc/contract';
import { SaveSearchDialog } from '../../../src/renderer/src/features/search/SaveSearchDialog';
import { SearchView } from '../../../src/renderer/src/features/search/SearchView';
import { AlertRulesSchema } from '../../../src/shared/watch';
import { errResult, okResult } from '../fakeBridge';
import { HOUR, NOW, savedSearch } from './fixtures';

frozenAtNow('#/search');

const params = { make: 'TESLA', model: 'MODEL 3', year_from: 2019, year_to: 2022 };

/** searches.create as core answers it: the saved search built from the input (`next_run_at` when given). */
function created(input: MethodInput<'searches.create'> | undefined, nextRunAt?: number) {
  return okResult(
    savedSearch({
      id: 21,
      name: input?.name ?? '',
      params: input?.params ?? {},
      schedule: input?.schedule ?? '*/30 * * * *',
      max_pages: input?.max_pages ?? 5,
      rules: AlertRulesSchema.parse(input?.rules ?? {}),
      last_run_at: null,
      last_ok_at: null,
      last_result_count: null,
      last_complete: null,
      new_matches_24h: 0,
      ...(nextRunAt === undefined ? {} : { next_run_at: nextRunAt }),
    }),
  );
}

describe('SaveSearchDialog', () => {
  it('highlights the schedule on a refusal with fields { schedule } and saves nothing', async () => {
    const fake = installFake({
      handlers: {
        'searches.create': () =>
          errResult('validation', 'The search was not saved.', {
            fields: {
              schedule: ['“*/0 * * *” is not a cron expression: use five fields, e.g. */15 * * * *.'],
            },
          }),
      },
    });
    const onClose = vi.fn();
    render(<SaveSearchDialog params={params} onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'Save this search' });
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Schedule' }), {
      target: { value: 'custom' },
    });
    const cron = within(dialog).getByRole('textbox', { name: /^Cron expression/ }) as HTMLInputElement;
    fireEvent.change(cron, { target: { value: '*/0 * * *' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save search' }));

    await waitFor(() => expect(cron.getAttribute('aria-invalid')).toBe('true'));
    const message = within(dialog).getByText(
      '“*/0 * * *” is not a cron expression: use five fields, e.g. */15 * * * *.',
    );
    expect(cron.getAttribute('aria-describedby')).toBe(message.id);
    // The other fields are not marked, and the draft is kept.
    const name = within(dialog).getByRole('textbox', { name: 'Name' }) as HTMLInputElement;
    expect(name.getAttribute('aria-invalid')).toBeNull();
    expect(name.value).toBe('TESLA MODEL 3 2019–2022');
    expect(cron.value).toBe('*/0 * * *');
    expect(
      (within(dialog).getByRole('spinbutton', { name: 'Pages per run' }) as HTMLInputElement).getAttribute(
        'aria-invalid',
      ),
    ).toBeNull();
    // A field refusal is not also shown as a general error; nothing was saved and the dialog stays open.
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('dialog', { name: 'Search saved' })).toBeNull();
    expect(fake.calls.map((c) => c.method).filter((m) => m !== 'searches.estimate')).toEqual([
      'searches.create',
    ]);
    expect(inputsOf(fake, 'searches.create')[0]?.schedule).toBe('*/0 * * *');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('confirms "Search saved" with the name after a successful save', async () => {
    const fake = installFake({ handlers: { 'searches.create': created } });
    render(<SaveSearchDialog params={params} onClose={() => undefined} />);
    const name = screen.getByRole('textbox', { name: 'Name' });
    fireEvent.change(name, { target: { value: 'Model 3 under budget' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Schedule' }), { target: { value: '0 * * * *' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save search' }));

    const done = await screen.findByRole('dialog', { name: 'Search saved' });
    expect(within(done).getByRole('heading', { name: 'Search saved' })).toBeTruthy();
    const status = within(done).getByRole('status');
    expect(within(status).getByText('Model 3 under budget')).toBeTruthy();
    expect(status.textContent).toContain('runs it every hour, reading up to 5 pages a run');
    expect(within(done).getByRole('link', { name: 'Open Saved searches' }).getAttribute('href')).toBe(
      '#/saved',
    );

    const sent = inputsOf(fake, 'searches.create');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      name: 'Model 3 under budget',
      params,
      schedule: '0 * * * *',
      max_pages: 5,
    });
  });

  it('says when a rare schedule first runs, and how to start it sooner', async () => {
    installFake({
      handlers: {
        'searches.create': (i) => created({ ...i!, schedule: '0 8 * * *', max_pages: 2 }, NOW + 23 * HOUR),
      },
    });
    render(<SaveSearchDialog params={params} onClose={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save search' }));
    const done = await screen.findByRole('dialog', { name: 'Search saved' });
    expect(within(done).getByText(/^Its first run is in 23 hours \(/).textContent).toMatch(
      /^Its first run is in 23 hours \(.+\); until then it finds nothing\. Run now in Saved searches starts it today \(up to 2 requests\)\.$/,
    );
  });

  it('opens from Search with the current filters', async () => {
    const fake = installFake({
      handlers: {
        'vehicles.filters': () => errResult('network', 'Offline.', { retryable: true }),
        'searches.create': created,
      },
    });
    render(<SearchView store={testStore()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save this search…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save this search' });
    expect((within(dialog).getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe(
      'All open lots',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save search' }));
    expect(await screen.findByRole('dialog', { name: 'Search saved' })).toBeTruthy();
    expect(inputsOf(fake, 'searches.create')[0]).toMatchObject({
      name: 'All open lots',
      params: {},
      schedule: '*/30 * * * *',
    });
  });
});
