import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Runs an example as its header says (`npx tsx examples/<name>.ts`), without npx's own output. */
async function runExample(name: string): Promise<string> {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', `examples/${name}.ts`], {
    cwd: ROOT,
    timeout: 60_000,
  });
  expect(stderr).not.toContain('[nebuly]'); // nothing went to onError
  return stdout;
}

describe('the framework examples run, offline, and the reference server gets what they say', () => {
  it('examples/ai-sdk.ts', async () => {
    const stdout = await runExample('ai-sdk');
    expect(stdout).toContain('A: Your order 42 has shipped and arrives on Tuesday.');
    expect(stdout).toContain('conversation.end(): delivered');
    // One turn with every call it took, in order; the streamed one-call question a turn of its own.
    expect(stdout).toMatch(
      /interaction "Where is my order 42\?" → "Your order 42 has shipped and arrives on Tuesday\."\n\s+embedding text-embedding-3-small.*\n\s+llm .*topic.*\n\s+llm .*getOrder.*\n\s+tool\s+getOrder.*\n\s+llm .*arrives on Tuesday/,
    );
    expect(stdout).toMatch(/interaction "Can I change the delivery address\?" → "You can change it until it ships\."\n\s+llm/);
  });

  it('examples/langchain.ts', async () => {
    const stdout = await runExample('langchain');
    expect(stdout).toContain('endConversation(): delivered');
    expect(stdout).toMatch(
      /interaction "Where is my order 42\?" → "Your order 42 has shipped and arrives on Tuesday\."\n\s+retrieval FakeRetriever.*\n\s+llm\s+FakeStreamingChatModel: "get_order.*\n\s+retrieval get_order.*\n\s+llm\s+FakeListChatModel/,
    );
  });
});
