// The import graph of src/, checked by `npm run lint`: no cycle, and no import from a
// layer to one above it. docs/architecture.md draws the same layers.

/** Lowest first: a folder (or top-level file) may import its own layer and those below. */
const LAYERS = [
  ['utils'],
  ['types'],
  ['schemas'],
  ['core'],
  ['privacy'],
  ['resources', 'builders', 'recorder', 'page-feedback'],
  ['client\\.ts', 'deprecated-schemas\\.ts'],
  ['index\\.ts', 'integrations', 'node', 'redis', 'cli', 'reference-server', 'browser'],
];

const TESTS = '\\.test\\.ts$';
const under = (names) => `^src/(${names.join('|')})($|/)`;

const upward = LAYERS.slice(0, -1).map((layer, index) => ({
  name: `no-upward-from-${layer[0].replace(/\\\.ts$/, '')}`,
  comment: `${layer.join(', ')} must not import a layer above it`,
  severity: 'error',
  from: { path: under(layer), pathNot: TESTS },
  to: { path: under(LAYERS.slice(index + 1).flat()) },
}));

// Within a layer, the parts stand side by side and know nothing of each other.
const sideways = LAYERS.flatMap((layer) =>
  layer.length < 2
    ? []
    : layer.map((name) => ({
        name: `no-sideways-from-${name.replace(/\\\.ts$/, '')}`,
        comment: `${name} must not import ${layer.filter((other) => other !== name).join(', ')}`,
        severity: 'error',
        from: { path: under([name]), pathNot: TESTS },
        to: { path: under(layer.filter((other) => other !== name)) },
      })),
);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Files must not import each other in a loop, not even for types.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...upward,
    ...sideways,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    // Type-only imports count: a cycle of types is as hard to read as any other.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
