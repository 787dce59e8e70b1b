import { once } from 'node:events';
import { type FileHandle, open, truncate } from 'node:fs/promises';

/** Where exported lines go, with backpressure: each write resolves once the output took it. */
export interface LineSink {
  /** Writes text; resolves when the output can take more. */
  write(text: string): Promise<void>;
  /** Bytes written since the file began (its size, for a file), including those of a resumed one. */
  readonly bytes: number;
  /** Once the lines written so far are on disk (a file) or handed on (stdout). */
  sync(): Promise<void>;
  close(): Promise<void>;
}

/** Lines to stdout, waiting for `drain` when the reader is slower than the export. */
export function stdoutSink(stdout: NodeJS.WritableStream = process.stdout): LineSink {
  let bytes = 0;
  return {
    async write(text) {
      bytes += Buffer.byteLength(text);
      if (!stdout.write(text)) await once(stdout, 'drain');
    },
    get bytes() {
      return bytes;
    },
    async sync() {},
    async close() {},
  };
}

/**
 * Lines to a file: a new one, or, resuming, the same one cut back to `keepBytes` (what
 * came after the last complete window is dropped) and written on from there.
 */
export async function fileSink(path: string, keepBytes: number | undefined): Promise<LineSink> {
  let handle: FileHandle;
  if (keepBytes === undefined) handle = await open(path, 'w');
  else {
    await truncate(path, keepBytes);
    handle = await open(path, 'a');
  }
  let bytes = keepBytes ?? 0;
  return {
    async write(text) {
      const buffer = Buffer.from(text);
      await handle.write(buffer);
      bytes += buffer.byteLength;
    },
    get bytes() {
      return bytes;
    },
    async sync() {
      await handle.sync();
    },
    async close() {
      await handle.close();
    },
  };
}
