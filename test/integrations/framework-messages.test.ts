// How the framework integrations read messages, inputs and results into step texts: the
// cases the end-to-end tests do not reach.
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { eventRequest, stepMessages as aiStepMessages, toolOutputText } from '../../src/integrations/ai-sdk/messages.js';
import {
  inputText,
  outputText,
  stepMessages as langchainStepMessages,
  toolCallTexts,
  toolResultText,
} from '../../src/integrations/langchain/messages.js';

describe('AI SDK messages', () => {
  it('reads every typed tool output by its type, and a raw value as JSON', () => {
    expect(toolOutputText({ type: 'json', value: { status: 'shipped' } })).toBe('{"status":"shipped"}');
    expect(toolOutputText({ type: 'text', value: 'shipped' })).toBe('shipped');
    expect(toolOutputText({ type: 'error-text', value: 'not found' })).toBe('not found');
    expect(toolOutputText({ type: 'content', value: [{ type: 'text', text: 'a' }, { type: 'file-data', data: 'AAAA' }, { type: 'text', text: 'b' }] })).toBe(
      'a\n[file-data]\nb',
    );
    expect(toolOutputText({ type: 'execution-denied', reason: 'not allowed' })).toBe('execution denied: not allowed');
    expect(toolOutputText({ orderId: '42' })).toBe('{"orderId":"42"}');
  });

  it('model prompts: system first, parts as text, files as placeholders, reasoning left out', () => {
    expect(
      aiStepMessages([
        { role: 'user', content: [{ type: 'text', text: 'Look at this' }, { type: 'file', mediaType: 'image/png', data: 'AAAA' }] },
        { role: 'system', content: 'Be brief.' },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'thinking…' },
            { type: 'text', text: 'Let me check.' },
            { type: 'tool-call', toolCallId: 'c1', toolName: 'getOrder', input: { orderId: '42' } },
          ],
        },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'getOrder', output: { type: 'text', value: 'shipped' } }] },
        { role: 'narrator', content: 'left out' },
      ]),
    ).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Look at this\n[file]' },
      { role: 'assistant', content: 'Let me check.\ngetOrder({"orderId":"42"})' },
      { role: 'tool', content: 'shipped' },
    ]);
  });

  it('telemetry events: `system` as a string, a message or several, then the messages', () => {
    expect(eventRequest('Be brief.', [{ role: 'user', content: 'Hi' }]).messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
    ]);
    expect(eventRequest([{ role: 'system', content: 'A' }, { role: 'system', content: 'B' }], []).messages).toEqual([
      { role: 'system', content: 'A' },
      { role: 'system', content: 'B' },
    ]);
    expect(eventRequest(undefined, undefined).messages).toEqual([]);
  });
});

describe('LangChain messages', () => {
  it('maps message classes, dict messages and tuples to the wire roles, system first', () => {
    expect(
      langchainStepMessages([
        new HumanMessage('Hi'),
        new SystemMessage('Be brief.'),
        { role: 'developer', content: 'Use metric units.' },
        ['ai', 'Hello!'],
        new ToolMessage({ content: 'shipped', tool_call_id: 'c1' }),
        { role: 'narrator', content: 'left out' },
        'not a message',
      ]),
    ).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'system', content: 'Use metric units.' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
      { role: 'tool', content: 'shipped' },
    ]);
  });

  it('an AI message: its text, then its tool calls, one a line; image parts as placeholders', () => {
    const calling = new AIMessage({ content: 'Let me check.', tool_calls: [{ id: 'c1', name: 'get_order', args: { id: 7 } }] });
    expect(toolCallTexts(calling)).toEqual(['get_order({"id":7})']);
    expect(langchainStepMessages([calling])).toEqual([{ role: 'assistant', content: 'Let me check.\nget_order({"id":7})' }]);
    expect(
      langchainStepMessages([new HumanMessage({ content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'data:' } }] })]),
    ).toEqual([{ role: 'user', content: 'What is this?\n[image]' }]);
  });

  it('reads a run’s user input wherever chains and agents usually carry it', () => {
    expect(inputText('Where is my order?')).toBe('Where is my order?');
    expect(inputText({ question: 'Q?' })).toBe('Q?');
    expect(inputText({ input: 'I?', chat_history: [] })).toBe('I?');
    expect(inputText({ messages: [new HumanMessage('first'), new AIMessage('reply'), new HumanMessage('second')] })).toBe('second');
    expect(inputText([['human', 'tuple question']])).toBe('tuple question');
    expect(inputText({ topic: 'only key' })).toBe('only key');
    expect(inputText({ a: 1, b: 2 })).toBeUndefined();
  });

  it('reads a run’s answer the same way, the last AI message of a list', () => {
    expect(outputText({ output: 'It shipped on Monday.' })).toBe('It shipped on Monday.');
    expect(outputText(new AIMessage('As a message.'))).toBe('As a message.');
    expect(outputText({ messages: [new HumanMessage('Q'), new AIMessage('first'), new ToolMessage({ content: 't', tool_call_id: 'c' }), new AIMessage('final')] })).toBe(
      'final',
    );
    expect(outputText({ answer: 'A', sources: ['x'] })).toBe('A');
  });

  it('a tool’s result: a ToolMessage’s content, a string, anything else as JSON', () => {
    expect(toolResultText(new ToolMessage({ content: 'shipped', tool_call_id: 'c1' }))).toBe('shipped');
    expect(toolResultText('plain')).toBe('plain');
    expect(toolResultText({ status: 'shipped' })).toBe('{"status":"shipped"}');
  });
});
