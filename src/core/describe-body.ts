import { formatPath, listBounded } from '../utils/issues.js';

/** The FastAPI validation detail: one entry per problem. */
interface FastApiDetailItem {
  loc?: unknown;
  msg?: unknown;
}

/**
 * A readable sentence from the service's error body, whichever FastAPI shape it has
 * (`{ detail: "text" }` or `{ detail: [{ loc, msg }] }`), or the start of a text body.
 *
 * @example
 * ```ts
 * describeBody({ detail: [{ loc: ['body', 'users', 0], msg: 'field required' }] }); // 'users[0]: field required'
 * ```
 */
export function describeBody(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim().slice(0, 500) || undefined;
  if (typeof body !== 'object' || body === null || !('detail' in body)) return undefined;
  const { detail } = body;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    return listBounded(detail, (item: FastApiDetailItem) => {
      const loc = Array.isArray(item.loc)
        ? formatPath(
            (item.loc as unknown[])
              .filter((key, index) => !(index === 0 && key === 'body'))
              .map((key) => (typeof key === 'number' ? key : String(key))),
          )
        : undefined;
      const msg = typeof item.msg === 'string' ? item.msg : JSON.stringify(item.msg);
      return loc === undefined ? msg : `${loc}: ${msg}`;
    });
  }
  return undefined;
}
