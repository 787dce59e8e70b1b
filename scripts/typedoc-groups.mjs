// A TypeDoc plugin: groups the main module's exports in the API reference by what they
// are for (client, recorder, builders, errors, types), from the folder each is declared
// in, instead of one `@group` tag per declaration across the source. An export from a
// file no rule names is a warning, and `npm run docs` treats warnings as errors.
import { Comment, CommentTag, Converter } from 'typedoc';

/** The main module, as its `@module` tag names it. */
const MAIN_MODULE = 'nebuly-client';

/**
 * The group of each source file, first match wins: `[pattern, group]`, the pattern
 * matched against the path from `src/`. Order matters: errors before their folders.
 */
export const GROUP_RULES = [
  [/(^|[/-])errors?\.ts$/, 'Errors'],
  [/^recorder\//, 'Recorder'],
  [/^builders\//, 'Builders'],
  [/^privacy\//, 'Privacy'],
  [/^(client\.ts|core\/|resources\/)/, 'Client'],
  [/^(types|schemas|utils)\//, 'Types'],
];

/** The groups in the order the reference shows them. */
export const GROUP_ORDER = ['Client', 'Recorder', 'Builders', 'Privacy', 'Errors', 'Types'];

/**
 * The group of a declaration of `src/<path>`, or `undefined` when no rule names it.
 *
 * @example
 * ```js
 * groupOf('recorder/turn.ts'); // 'Recorder'
 * ```
 */
export function groupOf(path) {
  return GROUP_RULES.find(([pattern]) => pattern.test(path))?.[1];
}

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    const main = context.project.children?.find((module) => module.name === MAIN_MODULE);
    for (const reflection of main?.children ?? []) {
      const file = context.getSymbolFromReflection(reflection)?.declarations?.[0]?.getSourceFile().fileName.replaceAll('\\', '/');
      const path = file?.slice(file.lastIndexOf('/src/') + '/src/'.length);
      const group = path === undefined ? undefined : groupOf(path);
      if (group === undefined) {
        app.logger.warn(`typedoc-groups: ${reflection.name} (${path ?? 'no source'}) is in no group: add a rule to scripts/typedoc-groups.mjs`);
        continue;
      }
      reflection.comment ??= new Comment();
      if (!reflection.comment.blockTags.some((tag) => tag.tag === '@group')) {
        reflection.comment.blockTags.push(new CommentTag('@group', [{ kind: 'text', text: group }]));
      }
    }
  });
}
