import { describe, expect, it } from 'vitest';
import { EXPORT_BLOCK_WORDS, exportBlock, exportStatusOf } from '../../src/shared/exportBlock';

// The one reading of titles that block export or registration: the service's export flag, the document's name and
// IAAI's title brand, as real records carry them (docs/service-contract.md "Records").

describe('exportBlock', () => {
  it('reads each scrap-only document by its words, whatever the flag says', () => {
    expect(exportBlock({ name: 'CERTIFICATE OF DESTRUCTION', export: true })?.reason).toBe('destruction');
    expect(exportBlock({ name: 'PARTS ONLY', export: null })?.reason).toBe('parts_only');
    expect(exportBlock({ name: 'JUNK (CA)' })?.reason).toBe('junk');
    expect(exportBlock({ name: 'NON-REPAIRABLE', export: true })?.reason).toBe('non_repairable');
    expect(exportBlock({ name: 'NV - SALVAGE NON REPAIRABLE' })?.reason).toBe('non_repairable');
    expect(exportBlock({ name: 'SCRAP CERTIFICATE' })?.reason).toBe('non_repairable');
    expect(exportBlock({ name: 'CERTIFICATE OF DESTRUCTION' })).toEqual({
      reason: 'destruction',
      ...EXPORT_BLOCK_WORDS.destruction,
    });
  });

  it('blocks a salvage document the service marks not exportable, as real MV-907A and SALVAGE records can be', () => {
    const b = exportBlock({
      name: 'SALVAGE - REPAIRABLE-COLLISION',
      export: false,
      brand: 'REPAIRABLE-COLLISION',
    });
    expect(b?.reason).toBe('export_false');
    expect(b?.label).toBe('Not exportable');
    expect(exportBlock({ name: 'MV-907A', export: false })?.reason).toBe('export_false');
  });

  it('says both when the words block and the flag is false', () => {
    const b = exportBlock({ name: 'CERTIFICATE OF DESTRUCTION', export: false });
    expect(b?.reason).toBe('destruction');
    expect(b?.text).toMatch(/^Certificate of destruction: .* The service also marks it not exportable\.$/);
  });

  it("reads IAAI's title brand when the name does not say it", () => {
    expect(exportBlock({ name: 'BILL OF SALE', export: true, brand: 'PARTS ONLY' })?.reason).toBe(
      'parts_only',
    );
    expect(exportBlock({ name: 'BILL OF SALE', export: true }, 'JUNK')?.reason).toBe('junk');
  });

  it('blocks nothing for clean and repairable titles the service lets export, or for no document', () => {
    expect(
      exportBlock({ name: 'SALVAGE - REPAIRABLE-COLLISION', export: true, brand: 'REPAIRABLE' }),
    ).toBeNull();
    expect(exportBlock({ name: 'CLEAR', export: true })).toBeNull();
    expect(exportBlock({ name: 'REBUILT', export: null })).toBeNull();
    expect(exportBlock({})).toBeNull();
    expect(exportBlock(null)).toBeNull();
    expect(exportBlock(undefined)).toBeNull();
  });

  it('exportStatusOf: blocked, exportable when the service says so, else not stated', () => {
    expect(exportStatusOf({ name: 'CERTIFICATE OF DESTRUCTION', export: true })).toBe('blocked');
    expect(exportStatusOf({ name: 'SALVAGE', export: false })).toBe('blocked');
    expect(exportStatusOf({ name: 'SALVAGE', export: true })).toBe('exportable');
    expect(exportStatusOf({ name: 'CLEAR' })).toBe('not_stated');
    expect(exportStatusOf(null)).toBe('not_stated');
  });
});
