/** Where a command writes: results on stdout, progress and problems on stderr. */
export interface Io {
  /** Writes to stdout: results, the diff, exported data. */
  out(text: string): void;
  /** Writes to stderr: progress, warnings, errors. */
  err(text: string): void;
  /** Whether stderr is a terminal: progress is a bar there, plain lines elsewhere. */
  readonly interactive: boolean;
}

/** The process's own streams. */
export function processIo(): Io {
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    interactive: process.stderr.isTTY === true,
  };
}

/** `10000` → `10,000`. */
export function count(value: number): string {
  return value.toLocaleString('en-US');
}

/** `3, 'user'` → `3 users`. */
export function plural(value: number, noun: string): string {
  return `${count(value)} ${noun}${value === 1 ? '' : 's'}`;
}

// C0 and C1 controls, DEL, line and paragraph separators, and the bidirectional overrides
// and isolates (the "Trojan Source" characters): each can rewrite what a terminal shows.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with the characters that could steer a terminal escaped (`\u001b`, `\n`): for
 * data and the service's words printed among the command's own, so that a user id, a tag
 * or an error detail cannot clear the screen, recolour it, or forge a line of output.
 *
 * @example
 * ```ts
 * escapeControl('u-1\u001b[2J'); // 'u-1\\u001b[2J'
 * ```
 */
export function escapeControl(text: string): string {
  return text.replace(CONTROL, (character) => {
    if (character === '\n') return '\\n';
    if (character === '\r') return '\\r';
    if (character === '\t') return '\\t';
    return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}
