import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BadInputError } from '../../src/core/errors';
import { pgAvailable, testDatabase } from '../helpers/postgres';
import { tempDir } from '../helpers/tmp';
import { teamShells } from './teamShell';

// Every server of a team seals and opens the team's secrets (the API key, the channels' passwords) with one key file
// (docs/team.md "Several servers"): a server started with another one is refused at start, before it serves a page,
// instead of answering "no key" and sending nothing.

const { start, cleanups } = teamShells();
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe.skipIf(!pgAvailable())('the team key file', () => {
  it('refuses a second server whose key file is not the team’s, and starts one with the team’s', async () => {
    const db = (await testDatabase('teamkey'))!;
    await start(db);
    const other = tempDir();
    cleanups.push(() => other.cleanup());
    const refused = await start(db, {}, { secretKeyFile: join(other.dir, 'other.key') }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(BadInputError);
    expect((refused as Error).message).toMatch(/key file .*other\.key\) is not the team's/);
    const second = await start(db);
    expect(second.server.port).toBeGreaterThan(0);
  });
});
