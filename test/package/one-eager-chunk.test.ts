import { resolve } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { oneEagerChunk, SHARED_CLIENT_EXPORT, withSharedClient } from '../../scripts/one-eager-chunk.js';

describe("the bundlers' build's one eager chunk (scripts/one-eager-chunk.ts)", () => {
  it('appends a re-export of the client under a name no one reads', () => {
    expect(withSharedClient('export const a = 1;\n', '/repo/src/client.ts')).toBe(
      `export const a = 1;\n\nexport { NebulyClient as ${SHARED_CLIENT_EXPORT} } from "/repo/src/client.ts";\n`,
    );
  });

  it('gives the re-export to the lazy modules, and to no other module', async () => {
    const built = async (entry: string) => {
      const result = await build({
        entryPoints: [resolve('src', entry)],
        bundle: true,
        format: 'esm',
        platform: 'neutral',
        write: false,
        logLevel: 'silent',
        external: ['zod', 'zod/mini', 'ky'],
        plugins: [oneEagerChunk('src', 'src/client.ts')],
      });
      return result.outputFiles[0]!.text;
    };
    expect(await built('recorder/sending.ts')).toMatch(new RegExp(`NebulyClient as ${SHARED_CLIENT_EXPORT}`));
    expect(await built('core/http-engine.ts')).toMatch(new RegExp(`NebulyClient as ${SHARED_CLIENT_EXPORT}`));
    expect(await built('recorder/fit.ts')).not.toContain(SHARED_CLIENT_EXPORT);
  });
});
