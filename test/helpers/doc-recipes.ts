/**
 * The deployment recipes of the guides (docs/deployments.md and its page per shape,
 * docs/deploy-*.md), run as written: a code block, its imports left out and given by the
 * test instead, evaluated as a module body. Each call makes a fresh module instance (a
 * new function instance, a new process's module), which `import` of one file cannot.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The deployment pages: where {@link recipeBlock} looks unless told otherwise. */
const DEPLOYMENT_PAGES = ['deployments', 'deploy-single-process', 'deploy-several-instances', 'deploy-serverless', 'deploy-edge'];

/**
 * The one ```ts block of `pages` (names of guides in docs/) that contains `marker`.
 *
 * @throws Error when none or several do.
 * @example
 * ```ts
 * const code = recipeBlock('export async function onMessage');
 * const route = recipeBlock('nebulyTelemetry(target)', ['integrations']);
 * ```
 */
export function recipeBlock(marker: string, pages: readonly string[] = DEPLOYMENT_PAGES): string {
  const blocks = pages.flatMap((page) => [...readFileSync(`${ROOT}docs/${page}.md`, 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!));
  const found = blocks.filter((code) => code.includes(marker));
  if (found.length !== 1) throw new Error(`${found.length} blocks of ${pages.join(', ')} contain ${marker}`);
  return found[0]!;
}

const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (
  ...args: unknown[]
) => Promise<Record<string, unknown>>;

/**
 * Runs `code` as a module body with `scope` for its imports, and answers what it exports
 * (functions, `export const`, the default export as `__default`) and the `nebuly` and
 * `redis` it makes, for the test to close.
 *
 * @example
 * ```ts
 * const { nebuly } = await runRecipe<{ nebuly: NebulyClient }>(recipeBlock('// lib/nebuly.ts'), { NebulyClient, redisStore, createClient });
 * ```
 */
export async function runRecipe<T>(code: string, scope: Record<string, unknown>): Promise<T> {
  const names = [...code.matchAll(/export (?:async )?(?:function|const) (\w+)/g)].map((match) => match[1]!);
  for (const made of ['nebuly', 'redis']) if (!names.includes(made) && new RegExp(`^const ${made} =`, 'm').test(code)) names.push(made);
  const body = code
    .replace(/^import .*$/gm, '')
    .replace(/^export default /m, 'const __default = ')
    .replace(/^export /gm, '');
  const { code: js } = await transform(body, { loader: 'ts', format: 'esm', target: 'es2022' });
  if (body.includes('const __default')) names.push('__default');
  return (await new AsyncFunction(...Object.keys(scope), `${js}\nreturn { ${names.join(', ')} };`)(...Object.values(scope))) as T;
}
