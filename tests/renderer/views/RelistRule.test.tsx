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

// "Tell me when a lot comes back for the Nth time", as the watch and saved-search forms edit it.
describe('the relist attempt rule in the rules form', () => {
  it('shows the stored attempt, sends what the buyer types, and shows the field error', () => {
    const rules = AlertRulesSchema.parse({ relist_attempt: 3 });
    let draft: RulesDraft = rulesToDraft(rules);
    for (const mode of ['watch', 'search'] as const) {
      draft = rulesToDraft(rules);
      const { unmount } = render(
        <RulesFields draft={draft} onChange={(d) => (draft = d)} error={null} mode={mode} />,
      );
      const input = screen.getByRole('textbox', {
        name: 'Tell me when it comes back for attempt no. (2-20)',
      });
      expect((input as HTMLInputElement).value).toBe('3');
      fireEvent.change(input, { target: { value: '4' } });
      expect(draftToRules(draft, rules)['relist_attempt']).toBe(4);
      unmount();
    }
    expect(draftToRules({ ...draft, relist_attempt: '' }, rules)['relist_attempt']).toBeNull();
    render(
      <RulesFields
        draft={{ ...draft, relist_attempt: '1' }}
        onChange={() => {}}
        error={{
          code: 'bad_input',
          message: 'invalid',
          retryable: false,
          fields: { 'rules.relist_attempt': ['Enter 2 to 20 attempts.'] },
        }}
        mode="watch"
      />,
    );
    expect(screen.getByText('Enter 2 to 20 attempts.')).toBeTruthy();
  });
});
