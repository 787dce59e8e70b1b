import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { GROUP_ORDER, groupOf } from '../../scripts/typedoc-groups.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const typedoc = JSON.parse(readFileSync(`${ROOT}typedoc.json`, 'utf8')) as {
  plugin?: string[];
  groupOrder?: string[];
  treatWarningsAsErrors?: boolean;
};

/** Each export of the main entry and the file under src/ that declares it. */
function mainExports(): [string, string][] {
  const index = `${ROOT}src/index.ts`;
  const program = ts.createProgram([index], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true, types: [] });
  const checker = program.getTypeChecker();
  return checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(index)!)!).map((exported) => {
    const declared = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const file = declared.declarations![0]!.getSourceFile().fileName;
    return [exported.name, file.slice(file.lastIndexOf('/src/') + '/src/'.length)];
  });
}

describe('the API reference of the main module', () => {
  const exports = mainExports();

  it('puts every export in a group: client, recorder, builders, errors, types', () => {
    const ungrouped = exports.filter(([, path]) => groupOf(path) === undefined);
    expect(ungrouped).toEqual([]);
    const groups = new Set(exports.map(([, path]) => groupOf(path)));
    expect([...groups].sort()).toEqual([...GROUP_ORDER].sort());
  });

  it.each([
    ['NebulyClient', 'Client'],
    ['RequestOptions', 'Client'],
    ['Conversation', 'Recorder'],
    ['Turn', 'Recorder'],
    ['llmStep', 'Builders'],
    ['hashEndUser', 'Builders'],
    ['APIError', 'Errors'],
    ['DeliveryError', 'Errors'],
    ['SendInteractionParams', 'Types'],
  ])('shows %s under %s', (name, group) => {
    const path = exports.find(([exported]) => exported === name)?.[1];
    expect(path).toBeDefined();
    expect(groupOf(path!)).toBe(group);
  });

  it('is built with the grouping plugin, the groups in that order, and fails on any warning', () => {
    expect(typedoc.plugin).toEqual(['./scripts/typedoc-groups.mjs']);
    expect(typedoc.groupOrder).toEqual([...GROUP_ORDER, '*']);
    expect(typedoc.treatWarningsAsErrors).toBe(true);
  });
});
