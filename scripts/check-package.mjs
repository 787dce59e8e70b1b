// Checks the package as users get it: packs the tarball once, then lints it with
// publint (exports map, files, module formats) and @arethetypeswrong/cli (types for
// ESM and CommonJS under every resolution mode users have). Run after `npm run build`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import ts from 'typescript';
import { STRIPPED_CLASSES } from './strip-internals.mjs';
import { BUNDLED_PACKAGES, NOTICES_FILE, packagesIn } from './third-party-notices.ts';

// A small root: at most 40 runtime names, none of them deprecated (the schemas are in
// `nebuly-client/schemas`), in both formats.
const MAX_ROOT_NAMES = 40;
const esmRoot = Object.keys(await import(join(process.cwd(), 'dist/index.js')));
const cjsRoot = Object.keys((await import('node:module')).createRequire(import.meta.url)(join(process.cwd(), 'dist/index.cjs')));
for (const [format, names] of [['ESM', esmRoot], ['CommonJS', cjsRoot]]) {
  if (names.length > MAX_ROOT_NAMES) throw new Error(`the ${format} root exports ${names.length} runtime names (at most ${MAX_ROOT_NAMES}): ${names.join(', ')}`);
  const schemas = names.filter((name) => /Schema$|^[A-Z_]+S$/.test(name) && name !== 'MASK_FAILED');
  if (schemas.length > 0) throw new Error(`the ${format} root exports schemas: ${schemas.join(', ')} (nebuly-client/schemas only)`);
}
console.log(`== the root exports ${esmRoot.length} runtime names (at most ${MAX_ROOT_NAMES})`);

// The internals of Conversation and Turn (their members marked @internal in src/) are in
// no published declaration, and their constructors are private (scripts/strip-internals.mjs).
const internalMembers = new Map();
for (const [name, file] of [['Conversation', 'src/recorder/conversation.ts'], ['Turn', 'src/recorder/turn.ts']]) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const declaration = source.statements.find((statement) => ts.isClassDeclaration(statement) && statement.name?.text === name);
  const internal = declaration.members.filter((member) => ts.getJSDocTags(member).some((tag) => tag.tagName.text === 'internal'));
  internalMembers.set(name, internal.map((member) => (ts.isConstructorDeclaration(member) ? 'constructor' : member.name.getText(source))));
}
if (STRIPPED_CLASSES.some((name) => !internalMembers.has(name))) throw new Error('check-package does not check every class strip-internals strips');
let classesSeen = 0;
for (const file of readdirSync('dist').filter((name) => /\.d\.c?ts$/.test(name))) {
  const source = ts.createSourceFile(file, readFileSync(join('dist', file), 'utf8'), ts.ScriptTarget.Latest, true);
  for (const statement of source.statements) {
    if (!ts.isClassDeclaration(statement) || !internalMembers.has(statement.name?.text)) continue;
    classesSeen += 1;
    const published = statement.members.map((member) =>
      ts.isConstructorDeclaration(member)
        ? member.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.PrivateKeyword) ? 'private constructor' : 'constructor'
        : member.name?.getText(source));
    const leaked = internalMembers.get(statement.name.text).filter((name) => published.includes(name));
    if (leaked.length > 0) throw new Error(`dist/${file}: ${statement.name.text} publishes its internals ${leaked.join(', ')}`);
  }
}
if (classesSeen === 0) throw new Error('no declaration of Conversation or Turn found in dist/');
console.log(`== Conversation and Turn publish none of their internals (${[...internalMembers].map(([name, members]) => `${name}: ${members.join(', ')}`).join('; ')})`);

// What dist/ bundles is listed, with its licence text, in THIRD_PARTY_NOTICES.md.
const bundled = packagesIn('dist');
const unlisted = bundled.filter((name) => !BUNDLED_PACKAGES.includes(name));
if (unlisted.length > 0) throw new Error(`dist/ bundles ${unlisted.join(', ')}, not in BUNDLED_PACKAGES (scripts/third-party-notices.ts)`);
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const twice = BUNDLED_PACKAGES.filter((name) => manifest.dependencies?.[name] !== undefined || manifest.peerDependencies?.[name] !== undefined);
if (twice.length > 0) throw new Error(`${twice.join(', ')} bundled and a dependency too: shipped twice`);
console.log(`== dist/ bundles ${bundled.join(', ')}: in ${NOTICES_FILE}, not dependencies`);

// The main entry must never load an integration's framework: walk the files it imports
// (relative specifiers) in both formats and refuse any framework specifier among them.
const FRAMEWORKS = /^(openai|@anthropic-ai\/|@google\/genai|@aws-sdk\/|ai$|ai\/|@langchain\/|@opentelemetry\/|@openai\/)/;
function frameworksLoadedBy(entry) {
  const seen = new Set();
  const found = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const [, specifier] of code.matchAll(/(?:from\s*|import\s*\(?\s*|require\(\s*)['"]([^'"]+)['"]/g)) {
      if (specifier.startsWith('.')) visit(join(dirname(file), specifier));
      else if (FRAMEWORKS.test(specifier)) found.add(specifier);
    }
  };
  visit(entry);
  return [...found];
}
for (const entry of ['dist/index.js', 'dist/node/index.js', 'dist/index.cjs']) {
  const loaded = frameworksLoadedBy(entry);
  if (loaded.length > 0) throw new Error(`${entry} loads ${loaded.join(', ')}: the main entry must load no integration framework`);
  console.log(`== ${entry} loads no integration framework`);
}

// Each integration entry takes what the main entry made (one shared copy of the recorder
// in each format, so `instanceof Turn` holds across entries): checkTarget would throw.
const crossEntry = `
  // Nothing is sent here (port 9 refuses): what the recorder reports at exit is not the point.
  const nebuly = new main.NebulyClient({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9', onError() {} });
  const turn = nebuly.startConversation({ end_user: 'u' }).interaction({ input: 'i' });
  const conversation = nebuly.startConversation({ end_user: 'u' });
  openai.observeOpenAI({}, { turn });
  anthropic.observeAnthropic({}, { turn });
  genai.observeGoogleGenAI({}, { turn });
  bedrock.observeBedrock({}, { conversation });
  aiSdk.nebulyMiddleware({ nebuly, endUser: 'u' });
  aiSdk.nebulyTelemetry({ conversation });
  new langchain.NebulyCallbackHandler({ turn });
  new otel.NebulySpanProcessor({ nebuly });
  new agents.NebulyAgentsProcessor({ nebuly });`;
const ENTRIES = "['index', 'openai', 'anthropic', 'ai-sdk', 'langchain', 'otel', 'openai-agents', 'google-genai', 'bedrock']";
const esm = `const [main, openai, anthropic, aiSdk, langchain, otel, agents, genai, bedrock] = await Promise.all(${ENTRIES}.map((name) => import('./dist/' + name + '.js')));`;
// As Node resolves the package's names: the `node` condition, the build in dist/node.
const esmByName = `const [main, openai, anthropic, aiSdk, langchain, otel, agents, genai, bedrock] = await Promise.all(['', '/openai', '/anthropic', '/ai-sdk', '/langchain', '/otel', '/openai-agents', '/google-genai', '/bedrock'].map((subpath) => import('nebuly-client' + subpath)));`;
const cjs = `const [main, openai, anthropic, aiSdk, langchain, otel, agents, genai, bedrock] = ${ENTRIES}.map((name) => require('./dist/' + name + '.cjs'));`;
execFileSync(process.execPath, ['--input-type=module', '-e', esm + crossEntry], { stdio: 'inherit' });
execFileSync(process.execPath, ['--input-type=module', '-e', esmByName + crossEntry], { stdio: 'inherit' });
execFileSync(process.execPath, ['--input-type=commonjs', '-e', cjs + crossEntry], { stdio: 'inherit' });
console.log('== the integration entries take targets made by the main entry (ESM for bundlers, ESM for Node, CommonJS)');

// nebuly-client/browser runs in users' pages: no `node:` import anywhere it loads, no API
// key, and at most 4 KB min+gz as a page's bundler makes it.
const BROWSER_LIMIT_GZIP_BYTES = 4096;
for (const entry of ['dist/browser.js', 'dist/browser.cjs']) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const [, specifier] of code.matchAll(/(?:from\s*|import\s*\(?\s*|require\(\s*)['"]([^'"]+)['"]/g)) {
      if (specifier.startsWith('.')) visit(join(dirname(file), specifier));
      else throw new Error(`${entry} loads ${specifier}: the browser entry must import nothing`);
    }
    if (/apiKey|authorization/i.test(code)) throw new Error(`${file} mentions an API key: the browser entry must hold none`);
  };
  visit(entry);
}
const browserBundle = await build({
  stdin: { contents: "export { sendFeedback, captureCopy } from './dist/browser.js';", resolveDir: process.cwd() },
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  write: false,
  logLevel: 'silent',
});
const browserGzipBytes = gzipSync(browserBundle.outputFiles[0].contents).length;
if (browserGzipBytes > BROWSER_LIMIT_GZIP_BYTES) {
  throw new Error(`nebuly-client/browser is ${browserGzipBytes} bytes min+gz: over its ${BROWSER_LIMIT_GZIP_BYTES}`);
}
console.log(`== nebuly-client/browser imports nothing, holds no key, and is ${browserGzipBytes} bytes min+gz (at most ${BROWSER_LIMIT_GZIP_BYTES})`);

const dir = mkdtempSync(join(tmpdir(), 'nebuly-pack-'));
const run = (command, args) => execFileSync(command, args, { stdio: 'inherit' });
try {
  const [{ filename }] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { encoding: 'utf8' }),
  );
  const tarball = join(dir, filename);
  const packed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8' }))[0].files.map((file) => file.path);
  for (const required of ['LICENSE', NOTICES_FILE, 'dist/index.js', 'dist/nebuly.js', 'dist/vendor/zod/LICENSE']) {
    if (!packed.includes(required)) throw new Error(`${filename} lacks ${required}`);
  }
  console.log(`\n== publint ${filename}`);
  run('npx', ['--no-install', 'publint', 'run', tarball, '--strict']);
  console.log(`\n== attw ${filename}`);
  // Every resolution mode, node10 (TypeScript's legacy `moduleResolution: node`) too:
  // typesVersions in package.json maps the subpath entries for it.
  run('npx', ['--no-install', 'attw', tarball]);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
