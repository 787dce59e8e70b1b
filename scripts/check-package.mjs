// Checks the package as users get it: packs the tarball once, then lints it with
// publint (exports map, files, module formats) and @arethetypeswrong/cli (types for
// ESM and CommonJS under every resolution mode users have). Run after `npm run build`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

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
    execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { encoding: 'utf8' }),
  );
  const tarball = join(dir, filename);
  console.log(`\n== publint ${filename}`);
  run('npx', ['--no-install', 'publint', 'run', tarball, '--strict']);
  console.log(`\n== attw ${filename}`);
  // Every resolution mode, node10 (TypeScript's legacy `moduleResolution: node`) too:
  // typesVersions in package.json maps the subpath entries for it.
  run('npx', ['--no-install', 'attw', tarball]);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
