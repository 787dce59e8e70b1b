import { describe, expect, it } from 'vitest';
import { stripInternals } from '../../scripts/strip-internals.mjs';

const DECLARATIONS = `declare class Conversation {
    #private;
    /** The id. */
    readonly id: string;
    /** @internal Its id in the recorder. */
    readonly key: string;
    /**
     * @internal Conversations come from \`nebuly.conversation()\`.
     */
    constructor(context: Context, init: Init);
    /** Ends it. */
    end(): Promise<void>;
}
declare class Other {
    /** @internal Left alone: not a class the strip aims at. */
    readonly state: string;
}
`;

describe('scripts/strip-internals.mjs', () => {
  it('takes the @internal members of Conversation and Turn out of declarations, their constructors made private', () => {
    const stripped = stripInternals(DECLARATIONS, 'x.d.ts');
    expect(stripped).toBe(`declare class Conversation {
    #private;
    /** The id. */
    readonly id: string;
    private constructor();
    /** Ends it. */
    end(): Promise<void>;
}
declare class Other {
    /** @internal Left alone: not a class the strip aims at. */
    readonly state: string;
}
`);
  });
});
