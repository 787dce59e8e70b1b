import { describe, expect, it } from 'vitest';
import { operationOf } from './observe.js';

describe('operationOf', () => {
  it('reads the operation from the command’s schema, else from its class name', () => {
    expect(operationOf({ input: {}, schema: [9, 'com.amazonaws.bedrockruntime', 'ConverseStream', {}] })).toBe('ConverseStream');
    class ConverseCommand {
      readonly input = {};
    }
    expect(operationOf(new ConverseCommand())).toBe('Converse');
  });

  it('is undefined for anything else, and never throws', () => {
    expect(operationOf({ input: {} })).toBeUndefined();
    expect(operationOf(undefined)).toBeUndefined();
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('no');
        },
      },
    );
    expect(operationOf(hostile)).toBeUndefined();
  });
});
