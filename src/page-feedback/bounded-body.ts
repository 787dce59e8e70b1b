import { boundedBytes } from '../utils/bounded-bytes.js';

/**
 * The request's body as text, read chunk by chunk and given up as soon as it passes
 * `limit` bytes: `undefined` then, and the rest is never read. A `Content-Length` over
 * the limit is refused before reading; a smaller one is not trusted (a chunked body has
 * none, and a client may lie).
 *
 * @example
 * ```ts
 * const text = await boundedText(request, 16 * 1024);
 * if (text === undefined) return new Response(null, { status: 413 });
 * ```
 */
export async function boundedText(request: Request, limit: number): Promise<string | undefined> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > limit) {
    await request.body?.cancel().catch(() => undefined);
    return undefined;
  }
  const bytes = await boundedBytes(request.body, limit);
  return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
}
