import { createReadStream } from 'node:fs';

/** Lines longer than this are not read into memory: they are named in the output and left where they are. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** One line of a file, with where it starts. */
export type Line =
  | { offset: number; end: number; text: string; terminated: boolean }
  | { offset: number; end: number; tooLong: true };

const NEWLINE = 0x0a;

/**
 * The lines of a file from byte `start`, streamed: only the line being read is held, so a
 * file of any size (over 512 MB, where `readFile` + `toString` fails) is read in bounded
 * memory. Each line comes with its byte offset (`offset`, and `end` past its `\n`); the
 * last one may lack its `\n` (`terminated: false`). A line over `maxLineBytes` is skipped
 * unread (`tooLong`).
 *
 * @example
 * ```ts
 * for await (const line of readLines('dead-letters.jsonl')) if ('text' in line) console.log(line.offset, line.text);
 * ```
 */
export async function* readLines(path: string, start = 0, maxLineBytes = MAX_LINE_BYTES): AsyncGenerator<Line> {
  let pieces: Buffer[] = [];
  let held = 0;
  let lineStart = start;
  let position = start;
  let tooLong = false;
  for await (const chunk of createReadStream(path, { start, highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
    let from = 0;
    for (let at = chunk.indexOf(NEWLINE, from); at !== -1; at = chunk.indexOf(NEWLINE, from)) {
      const end = position + at + 1;
      if (tooLong || held + (at - from) > maxLineBytes) yield { offset: lineStart, end, tooLong: true };
      else yield { offset: lineStart, end, text: Buffer.concat([...pieces, chunk.subarray(from, at)]).toString('utf8'), terminated: true };
      pieces = [];
      held = 0;
      tooLong = false;
      lineStart = end;
      from = at + 1;
    }
    if (from < chunk.length && !tooLong) {
      held += chunk.length - from;
      if (held > maxLineBytes) {
        tooLong = true;
        pieces = [];
      } else pieces.push(chunk.subarray(from));
    }
    position += chunk.length;
  }
  if (position > lineStart) {
    if (tooLong) yield { offset: lineStart, end: position, tooLong: true };
    else yield { offset: lineStart, end: position, text: Buffer.concat(pieces).toString('utf8'), terminated: false };
  }
}
