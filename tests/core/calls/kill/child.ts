// A Lotwatch core in a child process, for the call watches' kill -9 test: a call watch on the parent's sandbox
// channel (argv: data folder, the sandbox's base URL, the channel id), on a fake clock that only the parent moves (so no run depends on how fast the machine is).
//
// Commands, one a line on stdin:
//   create         save the call watch (hourly), print `created <id>`;
//   step <ms>      advance the clock by ms, run what is due, print `stepped <now>`.
// It prints `ready` once started, `started` when a run starts (its run row committed, the request not answered) and
// `finished` when a run's transaction is committed (stdout to a pipe is synchronous on Linux: a line is out before
// the process can be killed after it). The clock's time is kept in the data folder (`clock.txt`), so a restarted
// child goes on from where the killed one was.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { makeCore } from '../../../helpers/buildCore';
import { FakeClock } from '../../../helpers/fakeClock';

const [dataDir, baseUrl, channelId] = process.argv.slice(2);
const say = (line: string) => process.stdout.write(`${line}\n`);
const clockFile = join(dataDir!, 'clock.txt');
const clock = new FakeClock(
  existsSync(clockFile) ? Number(readFileSync(clockFile, 'utf8')) : Date.UTC(2026, 10, 22, 12, 0, 0),
);
const clientClock = {
  now: () => clock.now(),
  setTimeout: (fn: () => void, ms: number) => {
    const t = setTimeout(fn, ms);
    return () => clearTimeout(t);
  },
};
const { core } = makeCore({
  dir: dataDir!,
  clock,
  clientClock,
  demoService: async () => ({ baseUrl: baseUrl!, apiKey: 'lotwatch-demo-key', ratePerSecond: 1e9 }),
  autoStart: false,
  demoExamples: false,
  tzOffsetMinutes: () => 0,
});
core.on((e) => {
  if (e.name === 'poll.started') say('started');
  if (e.name === 'poll.finished') say('finished');
});

async function main(): Promise<void> {
  await core.ready;
  await core.call('settings.update', { requestsPerDay: 100 });
  await core.engine.refresh();
  say('ready');
  for await (const line of createInterface({ input: process.stdin })) {
    const [cmd, arg] = line.trim().split(' ');
    if (cmd === 'create') {
      const w = await core.call('callWatches.create', {
        name: 'Auction Garage',
        target: { endpoint: 'GET /api/v1/vp/channel/videos', query: { channel_id: channelId! } },
        schedule: '0 * * * *',
        rules: { cap_per_lot_per_hour: 60 },
      });
      say(`created ${w.id}`);
    } else if (cmd === 'step') {
      clock.advance(Number(arg));
      writeFileSync(clockFile, String(clock.now()));
      await core.engine.runDue();
      say(`stepped ${clock.now()}`);
    }
  }
  await core.dispose();
}

void main();
