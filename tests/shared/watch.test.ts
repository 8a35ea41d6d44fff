import { describe, expect, it } from 'vitest';
import {
  lotKeyOf,
  parseLotKey,
  parsePollTarget,
  pollTargetKey,
  type PollTarget,
} from '../../src/shared/watch';

describe('lot keys', () => {
  it('takes apart what lotKeyOf builds', () => {
    expect(parseLotKey(lotKeyOf('copart', '45416833'))).toEqual({
      platform: 'copart',
      lot_number: '45416833',
    });
    expect(parseLotKey('iaai:41234567')).toEqual({ platform: 'iaai', lot_number: '41234567' });
  });

  it('answers null for ids that are not lot keys', () => {
    for (const s of ['', '45416833', '1HGCM82633A004352', ':1', 'copart:', 'a:b:c', ':'])
      expect(parseLotKey(s)).toBeNull();
  });
});

describe('poll targets', () => {
  it('keeps the wire strings stored in poll_runs and carried by the poll events', () => {
    expect(pollTargetKey({ kind: 'search', id: 12 })).toBe('search:12');
    expect(pollTargetKey({ kind: 'watch', id: 3 })).toBe('watch:3');
  });

  it('reads back what it writes, and null for other sources', () => {
    const targets: PollTarget[] = [
      { kind: 'search', id: 1 },
      { kind: 'watch', id: 42 },
    ];
    for (const t of targets) expect(parsePollTarget(pollTargetKey(t))).toEqual(t);
    for (const s of ['explore', 'search:', 'watch:x', 'lot:1', 'search:1:2', ''])
      expect(parsePollTarget(s)).toBeNull();
  });
});
