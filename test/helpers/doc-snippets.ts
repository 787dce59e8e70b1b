/**
 * The code blocks of a guide, run as they are written: each is found by its first line
 * (the file it says it is, `// app/api/feedback/route.ts`), written into a directory of
 * the repository (so that `nebuly-client` and the frameworks resolve as in a user's
 * project), and imported from there.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The body of the ```ts block of `guide` (a path from the repository's root) whose first
 * line starts with `firstLine`.
 *
 * @throws Error when the guide has no such block.
 * @example
 * ```ts
 * const route = docSnippet('docs/recorder.md', '// app/api/feedback/route.ts');
 * ```
 */
export function docSnippet(guide: string, firstLine: string): string {
  const text = readFileSync(join(ROOT, guide), 'utf8');
  for (const [, body] of text.matchAll(/```ts\n([\s\S]*?)```/g)) {
    if (body!.startsWith(firstLine)) return body!;
  }
  throw new Error(`${guide} has no ts block starting with ${firstLine}`);
}

/** A user's project made of snippets, in a directory of the repository. */
export interface SnippetProject {
  readonly dir: string;
  /** Imports the project's file `path` (`app/api/feedback/route.ts`). */
  load<T>(path: string): Promise<T>;
  /** Removes the directory. */
  remove(): void;
}

/**
 * Writes `files` (path → code) into a fresh directory under `test/` and returns how to
 * load them.
 *
 * @example
 * ```ts
 * const project = writeProject({ 'lib/nebuly.ts': docSnippet('docs/recorder.md', '// lib/nebuly.ts') });
 * const { nebuly } = await project.load<{ nebuly: NebulyClient }>('lib/nebuly.ts');
 * ```
 */
export function writeProject(files: Record<string, string>): SnippetProject {
  mkdirSync(join(ROOT, 'test/.snippets'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, 'test/.snippets/project-'));
  for (const [path, code] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), code);
  }
  return {
    dir,
    load: async <T>(path: string) => (await import(/* @vite-ignore */ join(dir, path))) as T,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
