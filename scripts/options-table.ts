// docs/options.md's tables of options, generated: the names, defaults and environment
// variables from the option specs the client checks its options with (CLIENT_OPTIONS,
// RECORDER_OPTIONS), the meaning and type from the TSDoc of ClientOptions and
// RecorderOptions. `npm run docs:options` writes them between the markers;
// test/package/options-doc.test.ts fails while the file differs.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { OptionSpec } from '../src/core/option-checks.js';
import { RECORDER_OPTIONS } from '../src/core/recorder-options.js';
import { CLIENT_OPTIONS } from '../src/core/resolve-options.js';

export const OPTIONS_DOC = fileURLToPath(new URL('../docs/options.md', import.meta.url));
const START = '<!-- options:start (npm run docs:options writes this part) -->';
const END = '<!-- options:end -->';

type Specs = Readonly<Record<string, OptionSpec<unknown, unknown>>>;

/** An option's documented meaning, type and `@default`, read from its interface. */
interface Documented {
  meaning: string;
  type: string;
  defaultTag: string | undefined;
}

const SOURCES = ['src/core/options.ts', 'src/core/recorder-options.ts'].map((file) => fileURLToPath(new URL(`../${file}`, import.meta.url)));

/** One program for both interfaces: building it is most of the time taken. */
let program: ts.Program | undefined;

function documented(file: string, interfaceName: string): Map<string, Documented> {
  const path = fileURLToPath(new URL(`../${file}`, import.meta.url));
  program ??= ts.createProgram(SOURCES, { strict: true, exactOptionalPropertyTypes: true, noEmit: true, skipLibCheck: true, types: [] });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(path)!;
  const declaration = source.statements.find((statement): statement is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(statement) && statement.name.text === interfaceName);
  if (declaration === undefined) throw new Error(`${file} declares no interface ${interfaceName}`);
  const found = new Map<string, Documented>();
  for (const property of checker.getTypeAtLocation(declaration).getProperties()) {
    const node = property.valueDeclaration;
    const meaning = ts.displayPartsToString(property.getDocumentationComment(checker)).split(/\n\s*\n/)[0]!.replace(/\s+/g, ' ').trim();
    const defaultTag = property.getJsDocTags(checker).find((tag) => tag.name === 'default');
    const type = node !== undefined && ts.isPropertySignature(node) && node.type !== undefined ? node.type.getText() : checker.typeToString(checker.getTypeOfSymbol(property));
    found.set(property.name, {
      meaning,
      type: type.replace(/\s*\|\s*undefined$/, '').replace(/\s+/g, ' '),
      defaultTag: defaultTag === undefined ? undefined : ts.displayPartsToString(defaultTag.text).replace(/\s+/g, ' ').trim(),
    });
  }
  return found;
}

/** A default as code would write it. */
function formatDefault(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? value.toLocaleString('en-US').replaceAll(',', '_') : 'Infinity';
  if (typeof value === 'string') return `'${value}'`;
  return JSON.stringify(value);
}

const cell = (text: string) => text.replaceAll('|', '\\|');

function table(specs: Specs, docs: Map<string, Documented>, prefix: string, skip: readonly string[] = []): string {
  const rows = Object.entries(specs)
    .filter(([name]) => !skip.includes(name))
    .map(([name, spec]) => {
      const doc = docs.get(name);
      if (doc === undefined) throw new Error(`option ${prefix}${name} has a spec but no documented property`);
      // A function's default is told by its documentation: its source says nothing.
      const fallback = spec.fallback === undefined || typeof spec.fallback.value === 'function' ? undefined : formatDefault(spec.fallback.value);
      const defaults = fallback === undefined ? (doc.defaultTag ?? 'none') : `\`${fallback}\``;
      const env = spec.envName === undefined ? '' : `\`${spec.envName}\``;
      return `| \`${prefix}${name}\` | \`${cell(doc.type)}\` | ${cell(defaults)} | ${env} | ${cell(doc.meaning)} |`;
    });
  return ['| option | type | default | environment | meaning |', '|---|---|---|---|---|', ...rows].join('\n');
}

/**
 * The generated part of docs/options.md.
 * @example
 * ```ts
 * const part = optionsTables();
 * ```
 */
export function optionsTables(): string {
  const client = documented('src/core/options.ts', 'ClientOptions');
  const recorder = documented('src/core/recorder-options.ts', 'RecorderOptions');
  return [
    START,
    '',
    '### `new NebulyClient({ … })`',
    '',
    table(CLIENT_OPTIONS as unknown as Specs, client, '', ['recorder']),
    '',
    '### `new NebulyClient({ recorder: { … } })`',
    '',
    table(RECORDER_OPTIONS as unknown as Specs, recorder, 'recorder.'),
    '',
    END,
  ].join('\n');
}

/** docs/options.md with its generated part as the specs say. */
export function optionsDoc(current: string): string {
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  if (start === -1 || end === -1) throw new Error(`docs/options.md lacks the markers ${START} … ${END}`);
  return current.slice(0, start) + optionsTables() + current.slice(end + END.length);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(OPTIONS_DOC, optionsDoc(readFileSync(OPTIONS_DOC, 'utf8')));
  console.log('docs/options.md: the tables of options written from the option specs');
}
