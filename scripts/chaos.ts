/**
 * `npm run chaos`: the chaos run at full size (scripts/chaos/run.ts says what it does),
 * with its figures. Exits 1 when a check fails. Options as `--name=value`:
 * `npm run chaos -- --conversations=500 --recorders=6`; `--mode=cluster` runs it on a
 * 3-master Redis Cluster, `--mode=restart` restarts Redis empty mid-run.
 */
import { CHAOS_DEFAULTS, type ChaosMode, type ChaosOptions, runChaos } from './chaos/run.js';

const MODES: readonly ChaosMode[] = ['single', 'cluster', 'restart'];
const options: ChaosOptions = { ...CHAOS_DEFAULTS };
for (const argument of process.argv.slice(2)) {
  const mode = /^--mode=(\w+)$/.exec(argument)?.[1];
  if (mode !== undefined) {
    if (!MODES.includes(mode as ChaosMode)) throw new Error(`unknown mode ${mode}: one of ${MODES.join(', ')}`);
    options.mode = mode as ChaosMode;
    continue;
  }
  const [, name, value] = /^--([a-zA-Z]+)=(\d+(?:\.\d+)?)$/.exec(argument) ?? [];
  if (name === undefined || !(name in options) || name === 'holdMs' || name === 'mode') throw new Error(`unknown option ${argument}`);
  (options as unknown as Record<string, number>)[name] = Number(value);
}

const redis = {
  single: 'one Redis',
  cluster: 'a 3-master Redis Cluster',
  restart: `one Redis, restarted empty (no persistence) after ${options.restartAfter * 100}% of the turns`,
}[options.mode];
console.log(
  `chaos: ${options.conversations} conversations × ${options.turns} turns, recorded round robin by ${options.recorders} processes ` +
    `(one killed with SIGKILL after ${options.killAfter * 100}% of the turns), ${options.sweepers} sweeping; ${redis}, the reference server`,
);
const result = await runChaos(options);
console.table({ ...result.counts, ...result.figures, ...result.timings });
if (result.failures.length > 0) {
  console.error(`${result.failures.length} failures, by kind:`);
  const kinds = new Map<string, number>();
  for (const failure of result.failures) {
    const kind = failure.replace(/chat-\d+/g, 'chat-#').replace(/turn \d+/g, 'turn #').replace(/key \S+/g, 'key #');
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  for (const [kind, count] of kinds) console.error(`  ${count} × ${kind}`);
  console.error('the first ones:');
  for (const failure of result.failures.slice(0, 20)) console.error(`  ${failure}`);
  process.exitCode = 1;
} else {
  console.log(
    `every conversation reached the service once, whole, turns in order, feedback on its interaction; ` +
      `${result.figures.duplicatesFromKilledSender} duplicate(s), all of conversations whose sender was killed mid-send` +
      (options.mode === 'restart'
        ? `; Redis's restart lost ${result.counts.turnsLostWithReport} turn(s) of ${result.counts.conversationsLostWithReport} conversation(s), every one in a bucket reported lost (store_lost), none silently`
        : ''),
  );
}
