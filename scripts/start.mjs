#!/usr/bin/env node
// `npm start` (after the build): opens the desktop app. Electron downloads its binary on first run; where
// that cannot happen (an offline machine), this says so in one line and starts the headless shell instead.
// better-sqlite3 keeps its Node build for tests and the headless shell; the Electron app loads an
// Electron-ABI build from node_modules/.cache/lotwatch, made here once (prebuilt download, else node-gyp).
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { root } from './bin.mjs';

const require = createRequire(import.meta.url);
const electronPkg = join(root, 'node_modules', 'electron');

function electronBinary() {
  const pathFile = join(electronPkg, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const p = join(electronPkg, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(p) ? p : undefined;
}

/** The most telling line of a failed tool's output: the first error line, not a stack frame. */
function lastLine(text) {
  const lines = String(text ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('at '));
  const error = lines.find((l) => /error|failed|ENOTFOUND|ECONNREFUSED/i.test(l));
  return (error ?? lines.at(-1) ?? '').slice(0, 160);
}

function obtainElectron() {
  const found = electronBinary();
  if (found) return { path: found };
  const r = spawnSync(process.execPath, [join(electronPkg, 'install.js')], {
    cwd: electronPkg,
    encoding: 'utf8',
    timeout: 120_000,
  });
  const after = electronBinary();
  if (after) return { path: after };
  const why =
    r.error?.code === 'ETIMEDOUT' ? 'the download timed out' : lastLine(r.stderr) || `exit ${r.status}`;
  return { reason: `Electron is not available here: its binary could not be downloaded (${why})` };
}

function electronSqliteBinding(electronVersion) {
  const bsPkg = JSON.parse(readFileSync(join(root, 'node_modules/better-sqlite3/package.json'), 'utf8'));
  const abi = readFileSync(join(electronPkg, 'abi_version'), 'utf8').trim();
  const dir = join(
    root,
    'node_modules/.cache/lotwatch',
    `better-sqlite3-${bsPkg.version}`,
    `electron-v${abi}-${process.platform}-${process.arch}`,
  );
  const target = join(dir, 'better_sqlite3.node');
  if (existsSync(target)) return { path: target, version: bsPkg.version };
  const src = join(dir, 'src');
  mkdirSync(dir, { recursive: true });
  cpSync(join(root, 'node_modules/better-sqlite3'), src, {
    recursive: true,
    filter: (p) => !p.includes(`${'build'}/Release`),
  });
  const built = join(src, 'build/Release/better_sqlite3.node');
  const prebuild = join(dirname(require.resolve('prebuild-install/package.json')), 'bin.js');
  let r = spawnSync(process.execPath, [prebuild, '--runtime', 'electron', '--target', electronVersion], {
    cwd: src,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (!existsSync(built)) {
    const npmDir = dirname(dirname(process.env.npm_execpath ?? require.resolve('npm/package.json')));
    const gyp = join(npmDir, 'node_modules/node-gyp/bin/node-gyp.js');
    r = spawnSync(
      process.execPath,
      [
        gyp,
        'rebuild',
        '--release',
        `--target=${electronVersion}`,
        '--runtime=electron',
        '--dist-url=https://electronjs.org/headers',
      ],
      { cwd: src, encoding: 'utf8', timeout: 600_000 },
    );
  }
  if (!existsSync(built)) {
    return {
      reason: `better-sqlite3 could not be built for Electron ${electronVersion} (${lastLine(r.stderr) || 'no output'})`,
    };
  }
  cpSync(built, target);
  return { path: target, version: bsPkg.version };
}

function fallBack(reason) {
  console.log(
    `Lotwatch: ${reason}; starting the headless shell instead (open the address below in a browser).`,
  );
  const child = spawn(process.execPath, [join(root, 'out/main/headless.js'), ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code) => process.exit(code ?? 0));
}

const electron = obtainElectron();
if (!electron.path) {
  fallBack(electron.reason);
} else {
  const version = JSON.parse(readFileSync(join(electronPkg, 'package.json'), 'utf8')).version;
  const binding = electronSqliteBinding(version);
  if (!binding.path) {
    fallBack(binding.reason);
  } else {
    const child = spawn(electron.path, [join(root, 'out/main/index.js')], {
      stdio: 'inherit',
      env: {
        ...process.env,
        LOTWATCH_SQLITE_BINDING: binding.path,
        LOTWATCH_BETTER_SQLITE_VERSION: binding.version,
      },
    });
    child.on('exit', (code) => process.exit(code ?? 0));
  }
}
