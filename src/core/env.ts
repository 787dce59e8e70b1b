/**
 * Reads an environment variable where there is one: Node, Bun, and Deno with the
 * permission. Browsers and workers have no `process`; Deno without permission throws.
 */
export function readEnv(name: string): string | undefined {
  try {
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
      ?.env;
    const value = env?.[name]?.trim();
    return value === '' ? undefined : value;
  } catch {
    return undefined;
  }
}
