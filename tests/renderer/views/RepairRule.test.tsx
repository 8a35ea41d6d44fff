// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  draftToRules,
  RulesFields,
  rulesToDraft,
  type RulesDraft,
} from '../../../src/renderer/src/components/watch/RulesFields';
import { AlertRulesSchema } from '../../../src/shared/watch';

// "Repair cost under N % of ACV", as the saved-search and watch forms edit it.
describe('the repair-to-value rule in the rules form', () => {
  it('shows the stored share, sends what the buyer types, and says what an unknown figure does', () => {
    const rules = AlertRulesSchema.parse({ repair_under_acv_percent: 40 });
    let draft: RulesDraft = rulesToDraft(rules);
    const { unmount } = render(
      <RulesFields draft={draft} onChange={(d) => (draft = d)} error={null} mode="search" />,
    );
    const input = screen.getByRole('textbox', {
      name: 'New matches only when repair cost is under this % of ACV',
    });
    expect((input as HTMLInputElement).value).toBe('40');
    expect(input.getAttribute('aria-describedby')).toBeTruthy();
    expect(
      screen.getByText("IAAI's own figures; a lot without them (every Copart lot) never passes"),
    ).toBeTruthy();
    fireEvent.change(input, { target: { value: '35' } });
    expect(draftToRules(draft, rules)['repair_under_acv_percent']).toBe(35);
    expect(
      draftToRules({ ...draft, repair_under_acv_percent: '' }, rules)['repair_under_acv_percent'],
    ).toBeNull();
    unmount();

    render(
      <RulesFields
        draft={{ ...draft, repair_under_acv_percent: '500' }}
        onChange={() => {}}
        error={{
          code: 'bad_input',
          message: 'invalid',
          retryable: false,
          fields: { 'rules.repair_under_acv_percent': ['Enter 1 to 200 %.'] },
        }}
        mode="watch"
      />,
    );
    expect(
      screen.getByRole('textbox', { name: 'Say whether repair cost is under this % of ACV' }),
    ).toBeTruthy();
    expect(screen.getByText('Enter 1 to 200 %.')).toBeTruthy();
  });
});
