import { describe, expect, it } from 'vitest';
import { unknownCommand, unknownOption } from './suggest.js';

const COMMANDS = ['users sync', 'users export', 'replay', 'doctor'];

describe('unknownCommand', () => {
  it.each([
    [['userz', 'sync', 'users.csv'], 'unknown command "userz sync": did you mean "users sync"?'],
    [['users', 'snyc', 'users.csv'], 'unknown command "users snyc": did you mean "users sync"?'],
    [['replya', 'file'], 'unknown command "replya": did you mean "replay"?'],
    [['docter'], 'unknown command "docter": did you mean "doctor"?'],
    [['users', 'frobnicate'], 'unknown command "users frobnicate"; users has users sync, users export'],
    [['launch'], 'unknown command "launch"'],
  ])('%j → %s', (words, message) => {
    expect(unknownCommand(words, COMMANDS)).toBe(message);
  });

  it('never echoes what may be a key', () => {
    const key = 'nb_live_0123456789abcdef0123456789abcdef';
    expect(unknownCommand([key], COMMANDS)).not.toContain(key);
    expect(unknownCommand(['users', key], COMMANDS)).not.toContain(key);
  });
});

describe('unknownOption', () => {
  it('suggests the nearest option', () => {
    expect(unknownOption('--dryrun', ['dry-run', 'verbose'])).toBe('unknown option "--dryrun": did you mean --dry-run?');
    expect(unknownOption('--colour', ['dry-run'])).toBe('unknown option "--colour"');
  });

  it('--api-key gets the ways the key is taken', () => {
    expect(unknownOption('--api-key', ['api-key-file'])).toMatch(/use --api-key-file <path>, or set NEBULY_API_KEY$/);
  });
});
