import { describe, expect, it } from 'vitest';
import { LOCAL_OWNER, runAs, type Actor } from '../../../src/core/actor';
import { teamRefusal } from '../../../src/core/team/gate';
import { METHOD_NAMES } from '../../../src/shared/ipc/channels';
import {
  METHOD_ROLES,
  PERSONAL_SETTING_KEYS,
  ROLES,
  roleAllows,
  TEAM_SETTING_KEYS,
} from '../../../src/shared/team';
import { SettingsPatchSchema } from '../../../src/shared/settings';
import { coresPerTest } from '../../helpers/core';

// The role gate (docs/architecture.md "A team on one server") as core applies it to every call, and the team
// methods in the desktop app, which has one user and no team.

const startCore = coresPerTest();
const member = (role: Actor['role']): Actor => ({ userId: 7, name: 'Dana', role });

describe('the role gate', () => {
  it('refuses every method to a role below the one it needs, and lets every other role through', () => {
    for (const m of METHOD_NAMES)
      for (const role of ROLES) {
        const r = teamRefusal(member(role), m, undefined);
        if (roleAllows(role, METHOD_ROLES[m])) expect(r, `${m} as ${role}`).toBeNull();
        else expect(r, `${m} as ${role}`).toMatchObject({ code: 'forbidden', retryable: false });
      }
    expect(teamRefusal(member('viewer'), 'key.set', {})!.message).toBe(
      'Only an admin or above on your team can do this; you are a viewer. Ask an admin of your team.',
    );
  });

  it("places every setting once: a member changes their own, only an admin the team's", () => {
    const all = Object.keys(SettingsPatchSchema.shape).sort();
    expect([...PERSONAL_SETTING_KEYS, ...TEAM_SETTING_KEYS].sort()).toEqual(all);
    for (const role of ['viewer', 'buyer'] as const) {
      expect(teamRefusal(member(role), 'settings.update', { theme: 'dark', quietHours: {} })).toBeNull();
      for (const k of TEAM_SETTING_KEYS)
        expect(teamRefusal(member(role), 'settings.update', { theme: 'dark', [k]: 1 }), k).toMatchObject({
          code: 'forbidden',
        });
    }
    expect(teamRefusal(member('admin'), 'settings.update', { demoMode: false })).toBeNull();
    expect(teamRefusal(LOCAL_OWNER, 'settings.update', { demoMode: false })).toBeNull();
  });

  it('is applied by core to every call made as a member, before the handler runs', async () => {
    const t = await startCore();
    const r = await runAs(member('viewer'), () =>
      t.core.invoke('searches.create', { name: 'x', params: {} }),
    );
    expect(r).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await t.value<unknown[]>('searches.list')).toEqual([]);
    const s = await runAs(member('buyer'), () => t.core.invoke('settings.update', { requestsPerDay: 5 }));
    expect(s).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect((await t.value<{ requestsPerDay: unknown }>('settings.get')).requestsPerDay).toBeNull();
  });
});

describe('the team methods in the desktop app', () => {
  it('say there is no team, and refuse the rest as needing a team server', async () => {
    const t = await startCore();
    expect(await t.value('team.me')).toEqual({ team: false, user: null });
    const calls: [string, unknown][] = [
      ['team.users.list', undefined],
      ['team.users.create', { login: 'dana', name: 'Dana', role: 'buyer', password: 'long enough pw' }],
      ['team.users.update', { id: 1, role: 'viewer' }],
      ['team.users.resetPassword', { id: 1, password: 'long enough pw' }],
      ['team.password.change', { current: 'x', next: 'long enough pw' }],
    ];
    for (const [m, input] of calls) {
      const r = await t.call(m, input);
      expect(r, m).toMatchObject({ ok: false, error: { code: 'not_implemented' } });
      if (!r.ok) expect(r.error.message).toContain('team server');
    }
  });
});
