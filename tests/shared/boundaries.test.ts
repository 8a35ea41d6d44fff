import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The import boundaries of DESIGN.md "The parts", checked through the project's own ESLint config.
const eslint = new ESLint({ cwd: process.cwd() });

async function restricted(filePath: string, code: string): Promise<boolean> {
  const [r] = await eslint.lintText(code, { filePath });
  return (r?.messages ?? []).some((m) => m.ruleId === 'no-restricted-imports');
}

describe('import boundaries', () => {
  it.each([
    ['src/core/probe.ts', "import { app } from 'electron';"],
    ['src/core/probe.ts', "import { startShell } from '../main/shell';"],
    ['src/core/probe.ts', "import { createSandbox } from '../sandbox/index';"],
    ['src/sandbox/probe.ts', "import { createCore } from '../core/app';"],
    ['src/shared/probe.ts', "import { createCore } from '../core/app';"],
    ['src/renderer/src/probe.ts', "import { createCore } from '../../core/app';"],
    ['src/renderer/src/probe.ts', "import Database from 'better-sqlite3';"],
    ['src/headless/probe.ts', "import { startShell } from '../main/shell';"],
    ['src/preload/probe.ts', "import { createCore } from '../core/app';"],
  ])('%s may not: %s', async (file, code) => {
    expect(await restricted(file, code + '\nexport {};\n')).toBe(true);
  });

  it.each([
    ['src/core/probe.ts', "import { ok } from '../shared/ipc/errors';"],
    ['src/headless/probe.ts', "import { createCore } from '../core/app';"],
    ['src/main/probe.ts', "import { createCore } from '../core/app';"],
    ['src/renderer/src/probe.ts', "import { ok } from '../../shared/ipc/errors';"],
    ['src/sandbox/probe.ts', "import { ok } from '../shared/ipc/errors';"],
  ])('%s may: %s', async (file, code) => {
    expect(await restricted(file, code + '\nexport {};\n')).toBe(false);
  });
});
