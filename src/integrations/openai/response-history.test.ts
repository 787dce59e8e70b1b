import { describe, expect, it } from 'vitest';
import { ResponseHistory } from './response-history.js';

const said = (content: string) => ({ previous: undefined, messages: [{ role: 'user' as const, content }], calls: new Map() });

describe('ResponseHistory', () => {
  it('follows a chain of responses, oldest first, with the tool calls of each', () => {
    const history = new ResponseHistory(10, 1000);
    history.keep('r1', { previous: undefined, messages: [{ role: 'user', content: 'a' }], calls: new Map([['c1', { name: 'f', input: '{}' }]]) });
    history.keep('r2', { previous: 'r1', messages: [{ role: 'tool', content: 'b' }], calls: new Map() });
    const chain = history.chain('r2');
    expect(chain.messages.map((message) => message.content)).toEqual(['a', 'b']);
    expect([...chain.calls.keys()]).toEqual(['c1']);
  });

  it('lets the oldest go past its count and its characters; a chain cut short is what is left of it', () => {
    const history = new ResponseHistory(2, 10);
    history.keep('r1', said('aaaa'));
    history.keep('r2', { ...said('bbbb'), previous: 'r1' });
    history.keep('r3', { ...said('cccc'), previous: 'r2' });
    expect(history.size).toEqual({ responses: 2, chars: 8 });
    expect(history.chain('r3').messages.map((message) => message.content)).toEqual(['bbbb', 'cccc']);
    history.keep('r4', said('dddddddd'));
    expect(history.size).toEqual({ responses: 1, chars: 8 });
    history.keep('big', said('x'.repeat(11))); // heavier than the whole budget: not kept
    expect(history.chain('big').messages).toEqual([]);
  });
});
