// A Lotwatch core in a child process for the channel kill test: it opens the data folder the parent prepared (three
// alert channels and one sale result not yet sent to them), starts, and sends. The parent kills it with SIGKILL at
// chosen moments of a delivery and starts it again. Real clock; no service (no Demo sandbox is needed to send).
import { join } from 'node:path';
import { createCore } from '../../../../src/core/app';
import { openDatabase } from '../../../../src/core/db/connection';
import { silentLogger } from '../../../../src/core/log';
import { FileSecretBox } from '../../../../src/core/secrets';
import { systemClock } from '../../../../src/core/clock';

const [dataDir] = process.argv.slice(2);
const dbPath = join(dataDir!, 'lotwatch.sqlite');
const core = createCore({
  db: openDatabase(dbPath),
  dbPath,
  dataDir: dataDir!,
  clock: systemClock,
  secrets: new FileSecretBox(join(dataDir!, 'secret.key')),
  notifier: { notify() {} },
  log: silentLogger,
  shell: 'headless',
  version: 'kill-test',
  demoExamples: false,
  tzOffsetMinutes: () => 0,
});
void core.ready.then(() => process.stdout.write('ready\n'));
process.on('SIGTERM', () => {
  void core.dispose().then(() => process.exit(0));
});
