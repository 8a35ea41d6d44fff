import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LotRow } from '../db/lotsRepo';
import { FEE_LOADS, loadFeeFile, type FeeFileLoad } from '../../shared/fees';
import { feeTableFor, type FeeChoice } from '../../shared/feeTable';
import type { DeskSettings } from '../../shared/desk';
import type { FeeTableView } from '../../shared/ipc/contract';
import { PLATFORMS, type Platform } from '../../shared/vehicle';

const isPlatform = (p: string): p is Platform => (PLATFORMS as readonly string[]).includes(p);

/**
 * The title document's name of a stored lot, read from its normalised record (`title_document.name`, the real
 * `sale_document.name`; docs/service-contract.md "Records"), or null when the record has none or cannot be read.
 * Throws nothing.
 */
export function titleDocumentOf(row: Pick<LotRow, 'normalized'>): string | null {
  try {
    const v = JSON.parse(row.normalized) as { title_document?: { name?: unknown } | null };
    const name = v?.title_document?.name;
    return typeof name === 'string' && name.trim() !== '' ? name : null;
  } catch {
    return null;
  }
}

/**
 * The fee table a stored lot is charged from under the buyer's settings (feeTableFor: platform, title document,
 * membership; source data/fees/<platform>.json), or null for a platform Lotwatch has no fee file for. `loads` is
 * the fee files as loaded (FEE_LOADS unless a test passes a broken one). Throws nothing.
 */
export function lotFeeChoice(
  row: Pick<LotRow, 'platform' | 'normalized'>,
  s: DeskSettings,
  loads: Readonly<Record<Platform, FeeFileLoad>> = FEE_LOADS,
): FeeChoice | null {
  if (!isPlatform(row.platform)) return null;
  return feeTableFor(row.platform, titleDocumentOf(row), s.membership[row.platform], loads);
}

/**
 * The fee table as the lot page shows it (contract FeeTableViewSchema): the table and its names with the reason it
 * applies, or no table (`schedule` null) with the reason no fee number is given (a broken fee file, fees of the
 * membership not known, a platform without a fee file). Pure.
 */
export function feeTableView(choice: FeeChoice | null, platform: string): FeeTableView {
  if (!choice)
    return {
      schedule: null,
      table_id: null,
      label: null,
      version: null,
      reason: `Lotwatch has no fee schedule for ${platform}, so it gives no fee number.`,
      stricter: false,
      title_group: 'unknown',
    };
  if (!choice.ok)
    return {
      schedule: null,
      table_id: null,
      label: null,
      version: null,
      reason: choice.reason,
      stricter: false,
      title_group: choice.title_group,
    };
  return {
    schedule: choice.schedule,
    table_id: choice.table_id,
    label: choice.label,
    version: choice.version,
    reason: choice.reason,
    stricter: choice.stricter,
    title_group: choice.title_group,
  };
}

/**
 * Reads the fee files from a folder (`<dir>/copart.json`, `<dir>/iaai.json`) and loads each with loadFeeFile: a
 * file that is missing, is not JSON or fails its schema comes back refused with its path and what is wrong, never
 * thrown (product reason: a broken fee file stops the desk with a clear message, not a wrong number). The app uses
 * the files bundled from data/fees/ (FEE_LOADS); this reads a folder a buyer or a test points at.
 */
export function loadFeeDir(dir: string): Record<Platform, FeeFileLoad> {
  const one = (p: Platform): FeeFileLoad => {
    const path = join(dir, `${p}.json`);
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(path, 'utf8'));
    } catch (e) {
      const why = e instanceof SyntaxError ? `is not JSON (${e.message})` : 'cannot be read';
      return { ok: false, path, problem: `${path} ${why}` };
    }
    return loadFeeFile(p, path, json);
  };
  return { copart: one('copart'), iaai: one('iaai') };
}
