import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lazyModules, lazyModuleSource, throughLazyModule } from '../../scripts/one-lazy-file.js';

const SRC = resolve('src');

describe("Node's one lazy file (scripts/one-lazy-file.ts)", () => {
  it('finds every module of src that another imports with import(), and no type import', () => {
    const modules = lazyModules(SRC);
    expect(modules).toEqual(expect.arrayContaining([resolve(SRC, 'core/http-engine.ts'), resolve(SRC, 'recorder/sending.ts')]));
    expect(modules).toEqual([...modules].sort());
    // `typeof import('./sending.js')` names a type: not a module to load.
    expect(modules.every((module) => !module.endsWith('.js'))).toBe(true);
  });

  it('picks each lazy module out of the virtual module by its place in the list', () => {
    const modules = ['/repo/src/a.ts', '/repo/src/core/b.ts'];
    const source = "const a = await import('./a.js');\ntype B = typeof import('./core/b.js');\nimport('./core/b.js').then(({ b }) => b);";
    expect(throughLazyModule(source, '/repo/src/c.ts', modules)).toBe(
      'const a = await import("nebuly-lazy").then((lazy) => lazy.m0);\n' +
        "type B = typeof import('./core/b.js');\n" +
        'import("nebuly-lazy").then((lazy) => lazy.m1).then(({ b }) => b);',
    );
  });

  it('refuses a lazy import it does not know, naming it', () => {
    expect(() => throughLazyModule("import('./x.js')", '/repo/src/c.ts', [])).toThrow("/repo/src/c.ts: import('./x.js')");
  });

  it("makes a virtual module of the lazy modules' namespaces and the main entry's exports", () => {
    expect(lazyModuleSource(['/repo/src/a.ts'], '/repo/src/index.ts')).toBe(
      'export * as m0 from "/repo/src/a.ts";\nexport * from "/repo/src/index.ts";\n',
    );
  });
});
