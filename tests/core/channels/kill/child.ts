// A Lotwatch core in a child process for the channel kill test: it opens the data folder the parent prepared (three
// alert channels and one sale result not yet sent to them), starts, and sends. The parent kills it with SIGKILL at
// chosen moments of a delivery and starts it again. Real clock; no service (no Demo sandbox is needed to send).
import { systemClock } from '../../../../src/core/clock';
import { makeCore } from '../../../helpers/buildCore';

const [dataDir] = process.argv.slice(2);
const { core } = makeCore({
  dir: dataDir!,
  clock: systemClock,
  notifier: { notify() {} },
  version: 'kill-test',
  demoExamples: false,
  tzOffsetMinutes: () => 0,
});
void core.ready.then(() => process.stdout.write('ready\n'));
process.on('SIGTERM', () => {
  void core.dispose().then(() => process.exit(0));
});
