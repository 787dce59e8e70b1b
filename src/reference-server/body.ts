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
  if (request.body === null) return { ok: true, text: '' };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limitBytes) {
      // Not awaited: when the body is a tee branch (MSW clones the request), the cancel
      // settles only once the other branch is cancelled too, which may be never.
      void reader.cancel().catch(() => undefined);
      return { ok: false, reason: 'too-large' };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { ok: false, reason: 'not-utf8' };
  }
}
