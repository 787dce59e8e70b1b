/**
 * A request body's bytes, read chunk by chunk and counted as they arrive: a body that
 * grows past `limit` bytes is given up at that point, `undefined`, and the rest is never
 * read, so a chunked or lying request cannot make a server buffer more than the limit.
 * The page's feedback route and the reference server read their bodies with it.
 *
 * @example
 * ```ts
 * const bytes = await boundedBytes(request.body, 16 * 1024);
 * if (bytes === undefined) return new Response(null, { status: 413 });
 * ```
 */
export async function boundedBytes(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array | undefined> {
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Not awaited: when the body is a tee branch (MSW clones the request), the cancel
      // settles only once the other branch is cancelled too, which may be never.
      void reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
