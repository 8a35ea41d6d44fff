import { describe, expect, it } from 'vitest';
import {
  lotKeyOf,
  parseLotKey,
  parsePollTarget,
  pollTargetKey,
  type PollTarget,
  watchName,
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

describe('a watch’s name in its alerts', () => {
  it('is the label, else the lot number for a lot watch and the VIN for a VIN watch', () => {
    const vin = '1HGCM82633A004352';
    expect(watchName({ kind: 'lot', label: 'My S5', vin, lot_key: 'copart:45416833' })).toBe('My S5');
    expect(watchName({ kind: 'lot', label: '', vin, lot_key: 'copart:45416833' })).toBe('lot 45416833');
    expect(watchName({ kind: 'vin', label: ' ', vin, lot_key: 'copart:45416833' })).toBe(vin);
    expect(watchName({ kind: 'vin', label: '', vin: null, lot_key: null })).toBe('Watched lot');
  });
});
