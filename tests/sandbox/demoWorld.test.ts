import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { demoWorldStart } from '../../src/sandbox/demo';

const DAY = 86_400_000;
let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the Demo world across restarts', () => {
  it('keeps its start time for a restart within a week, so the same lots come back moved on', () => {
    dir = mkdtempSync(join(tmpdir(), 'demo-world-'));
    const t0 = Date.UTC(2026, 10, 23, 9, 30, 42);
    const first = demoWorldStart(dir, t0);
    expect(first).toBe(Date.UTC(2026, 10, 23, 9, 30));
    expect(JSON.parse(readFileSync(join(dir, 'demo-market.json'), 'utf8'))).toEqual({ startTime: first });
    expect(demoWorldStart(dir, t0 + 3 * DAY)).toBe(first);
  });

  it('starts a new world after a week, or when the file is unreadable', () => {
    dir = mkdtempSync(join(tmpdir(), 'demo-world-'));
    const t0 = Date.UTC(2026, 10, 1);
    const first = demoWorldStart(dir, t0);
    const later = t0 + 8 * DAY;
    expect(demoWorldStart(dir, later)).toBe(later);
    writeFileSync(join(dir, 'demo-market.json'), '{ not json');
    expect(demoWorldStart(dir, later + 60_000)).toBe(later + 60_000);
    expect(first).not.toBe(later);
  });

  it('works with a folder it cannot write to (a new world each time, no error)', () => {
    dir = mkdtempSync(join(tmpdir(), 'demo-world-'));
    const t = Date.UTC(2026, 10, 23, 10);
    expect(demoWorldStart(join(dir, 'missing', 'deeper'), t)).toBe(t);
  });
});
