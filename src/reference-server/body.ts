import { boundedBytes } from '../utils/bounded-bytes.js';

/** The body of a request, read with a limit. */
export type BodyRead =
  | { ok: true; text: string }
  | { ok: false; reason: 'too-large' | 'not-utf8' };

/**
 * Reads a request's body as UTF-8 text, counting the bytes as they arrive: a body that
 * grows past `limitBytes` is abandoned at that point, whatever its `Content-Length` said,
 * so a chunked or lying request cannot make the server buffer more than the limit.
 */
export async function readBody(request: Request, limitBytes: number): Promise<BodyRead> {
  const bytes = await boundedBytes(request.body, limitBytes);
  if (bytes === undefined) return { ok: false, reason: 'too-large' };
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { ok: false, reason: 'not-utf8' };
  }
}
