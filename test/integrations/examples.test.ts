import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PROCESS_TIMEOUT_MS } from '../helpers/process-timeout.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Runs an example as a user does (`npx tsx examples/…`), offline: fake provider, embedded reference server. */
async function runExample(path: string): Promise<string> {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', path], { cwd: ROOT, timeout: PROCESS_TIMEOUT_MS });
  expect(stderr).not.toContain('[nebuly]'); // nothing reached onError
  return stdout;
}

describe('the integration examples run against the local fakes and exit 0', () => {
  it('examples/openai.ts records a plain and a streamed call in one conversation', async () => {
    const stdout = await runExample('examples/openai.ts');
    expect(stdout).toContain('conversation chat-1: delivered');
    expect(stdout).toContain('stored: "Where is my order?" -> "You asked: "Where is my order?". It shipped on Monday." (gpt-4o-mini-2024-07-18, 42 in / 12 out)');
    // The streamed call has token counts too: includeUsage asked for them.
    expect(stdout).toContain('stored: "Can I change the address?" -> "You asked: "Can I change the address?". It shipped on Monday." (gpt-4o-mini-2024-07-18, 42 in / 12 out)');
    expect(stdout).not.toContain('sk-not-a-real-key');
  });

  it('examples/anthropic.ts records the tool loop as one interaction: two model calls, the tool run between', async () => {
    const stdout = await runExample('examples/anthropic.ts');
    expect(stdout).toContain('conversation: delivered; answer: Your order shipped on Monday.');
    expect(stdout).toContain(
      [
        'stored: "Where is order A-17?" -> "Your order shipped on Monday."',
        '  llm (1 messages, 80 tokens in)',
        '  tool get_order -> ["A-17: shipped Monday"]',
        '  llm (3 messages, 120 tokens in)',
      ].join('\n'),
    );
    expect(stdout.match(/stored:/g)).toHaveLength(1);
  });

  it('examples/google-genai.ts records a chat: the function call loop one interaction, the streamed message the next', async () => {
    const stdout = await runExample('examples/google-genai.ts');
    expect(stdout).toContain('conversation chat-1: delivered');
    expect(stdout).toContain(
      [
        'stored: "Where is order A-17?" -> "Your order shipped on Monday."',
        '  llm gemini-example-001 (80 in / 12 out)',
        '  tool get_order -> ["{\\"result\\":\\"A-17: shipped Monday\\"}"]',
        '  llm gemini-example-001 (120 in / 8 out)',
        'stored: "Can I change the address?" -> "You can change it until it ships."',
        '  llm gemini-example-001 (150 in / 9 out)',
      ].join('\n'),
    );
    expect(stdout).not.toContain('gemini-not-a-real-key');
  });

  it('examples/bedrock.ts records the streamed tool loop as one interaction: two model calls, the tool run between', async () => {
    const stdout = await runExample('examples/bedrock.ts');
    expect(stdout).toContain('conversation: delivered');
    expect(stdout).toContain(
      [
        'stored: "Where is order A-17?" -> "Your order shipped on Monday."',
        '  llm (1 messages, 80 tokens in)',
        '  tool get_order -> ["A-17: shipped Monday"]',
        '  llm (3 messages, 120 tokens in)',
      ].join('\n'),
    );
    expect(stdout.match(/stored:/g)).toHaveLength(1);
  });
});

describe('the framework examples run, offline, and the reference server gets what they say', () => {
  it('examples/ai-sdk.ts', async () => {
    const stdout = await runExample('examples/ai-sdk.ts');
    expect(stdout).toContain('A: Your order 42 has shipped and arrives on Tuesday.');
    expect(stdout).toContain('conversation.end(): delivered');
    // One turn with every call it took, in order; the streamed one-call question a turn of its own.
    expect(stdout).toMatch(
      /interaction "Where is my order 42\?" → "Your order 42 has shipped and arrives on Tuesday\."\n\s+embedding text-embedding-3-small.*\n\s+llm .*topic.*\n\s+llm .*getOrder.*\n\s+tool\s+getOrder.*\n\s+llm .*arrives on Tuesday/,
    );
    expect(stdout).toMatch(/interaction "Can I change the delivery address\?" → "You can change it until it ships\."\n\s+llm/);
  });

  it('examples/langchain.ts', async () => {
    const stdout = await runExample('examples/langchain.ts');
    expect(stdout).toContain('delivered before the function was frozen: 1 interaction(s)');
    expect(stdout).toMatch(
      /interaction "Where is my order 42\?" → "Your order 42 has shipped and arrives on Tuesday\."\n\s+retrieval FakeRetriever.*\n\s+llm\s+FakeStreamingChatModel: "get_order.*\n\s+retrieval get_order.*\n\s+llm\s+FakeListChatModel/,
    );
  });
});
