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
