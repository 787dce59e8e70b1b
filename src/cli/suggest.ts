import { nearestName } from '../core/nearest.js';

/**
 * A word from the command line that may be echoed in a message: short and made of the
 * characters of commands and flags. Anything else is not repeated, as a mistyped command
 * or flag may be followed by (or be) a key.
 */
const ECHOABLE = /^-{0,2}[A-Za-z][A-Za-z0-9-]{0,30}$/;

/** `"userz"` when the word may be echoed, else a description that does not repeat it. */
export function echo(word: string): string {
  return ECHOABLE.test(word) ? JSON.stringify(word) : `(a ${word.length}-character argument, not shown)`;
}

/**
 * The message for an unknown command: the words echoed when safe, and the nearest known
 * command when one is close (`userz sync` → `users sync`, `users snyc` → `users sync`).
 *
 * @example
 * ```ts
 * unknownCommand(['userz', 'sync'], ['users sync', 'users export', 'replay', 'doctor']);
 * // 'unknown command "userz sync": did you mean "users sync"?'
 * ```
 */
export function unknownCommand(words: readonly string[], commands: readonly string[]): string {
  const typed = words.slice(0, 2).filter((word) => !word.startsWith('-'));
  const candidates = [typed.join(' '), typed[0] ?? ''].filter((text) => text !== '');
  for (const candidate of candidates) {
    const nearest = nearestName(candidate, commands);
    if (nearest !== undefined && typed.every((word) => ECHOABLE.test(word))) {
      return `unknown command ${JSON.stringify(candidate)}: did you mean ${JSON.stringify(nearest)}?`;
    }
  }
  // A first word that is the start of a command (`users snyc`): suggest among its commands.
  const first = typed[0] ?? '';
  const group = commands.filter((command) => command.startsWith(`${first} `));
  const second = typed[1];
  if (group.length > 0 && second !== undefined) {
    const nearest = nearestName(`${first} ${second}`, group);
    const shown = ECHOABLE.test(second) ? JSON.stringify(`${first} ${second}`) : `${JSON.stringify(first)} ${echo(second)}`;
    return `unknown command ${shown}${nearest === undefined ? `; ${first} has ${group.join(', ')}` : `: did you mean ${JSON.stringify(nearest)}?`}`;
  }
  return `unknown command ${typed.length === 0 ? '' : typed.map(echo).join(' ')}`.trimEnd();
}

/**
 * The message for an unknown option: echoed when safe, with the nearest known one, and
 * for `--api-key` the ways the key is taken instead.
 *
 * @example
 * ```ts
 * unknownOption('--dryrun', ['dry-run', 'verbose']); // 'unknown option "--dryrun": did you mean --dry-run?'
 * ```
 */
export function unknownOption(option: string, known: readonly string[]): string {
  const name = option.replace(/^-+/, '').split('=')[0] ?? '';
  if (name === 'api-key' || name === 'apikey' || name === 'key') {
    return `unknown option --${name}: the key is never taken on the command line (other users of the machine see it in ps, and shell history keeps it); use --api-key-file <path>, or set NEBULY_API_KEY`;
  }
  const nearest = nearestName(name, known);
  const shown = ECHOABLE.test(`--${name}`) ? JSON.stringify(`--${name}`) : echo(option);
  return `unknown option ${shown}${nearest === undefined ? '' : `: did you mean --${nearest}?`}`;
}
