// Takes the internals of `Conversation` and `Turn` out of the published declarations
// (dist/**/*.d.ts, *.d.cts), after `tsup`: the members their source marks `@internal`
// (`state`, `key`, …: what the recorder and the integrations reach, and what a caller
// who set `conversation.state.next = undefined` could break) go, and their constructors
// become `private constructor();` (they come from `nebuly.conversation()` and
// `conversation.interaction()`). TypeScript's global `stripInternal` is not used: it
// drops declarations other declarations still name, and the declaration build fails.
// Aimed at these classes only; `npm run check:package` checks that none is left.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/** The classes whose `@internal` members are not published. */
export const STRIPPED_CLASSES = ['Conversation', 'Turn'];

/** Whether a member's own JSDoc carries `@internal`. */
function isInternal(member) {
  return ts.getJSDocTags(member).some((tag) => tag.tagName.text === 'internal');
}

/**
 * The declaration text without the internal members of the classes named: each removed
 * with its comment; a constructor replaced by `private constructor();`.
 *
 * @example
 * ```js
 * stripInternals('declare class Turn {\n    /** @internal *\/\n    constructor(a: A);\n}', 'turn.d.ts');
 * // 'declare class Turn {\n    private constructor();\n}'
 * ```
 */
export function stripInternals(text, fileName, classes = STRIPPED_CLASSES) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const edits = [];
  for (const statement of source.statements) {
    if (!ts.isClassDeclaration(statement) || !classes.includes(statement.name?.text)) continue;
    for (const member of statement.members) {
      if (!isInternal(member)) continue;
      const start = member.getFullStart();
      const replacement = ts.isConstructorDeclaration(member) ? '\n    private constructor();' : '';
      edits.push({ start, end: member.getEnd(), replacement });
    }
  }
  let result = text;
  for (const { start, end, replacement } of edits.sort((a, b) => b.start - a.start)) {
    result = result.slice(0, start) + replacement + result.slice(end);
  }
  return result;
}

/** Every declaration file under `dir`. */
function declarationFiles(dir) {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.d.ts') || file.endsWith('.d.cts'))
    .map((file) => join(dir, file));
}

if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? '')).href) {
  let changed = 0;
  for (const file of declarationFiles(process.argv[2] ?? 'dist')) {
    const text = readFileSync(file, 'utf8');
    const stripped = stripInternals(text, file);
    if (stripped !== text) {
      writeFileSync(file, stripped);
      changed += 1;
    }
  }
  console.log(`strip-internals: the internals of ${STRIPPED_CLASSES.join(' and ')} left out of ${changed} declaration file(s)`);
}
