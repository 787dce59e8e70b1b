import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { isPlainObject } from './plain-object.js';

describe('isPlainObject', () => {
  it('takes what the tags schema takes', () => {
    expect(isPlainObject({ a: 'b' })).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
    // An object from another realm (a vm context, an iframe) is plain there too.
    expect(isPlainObject(runInNewContext('({ a: "b" })'))).toBe(true);
  });

  it.each([['a string', 'ab'], ['an array', ['a']], ['a Map', new Map()], ['a Date', new Date(0)], ['a class instance', new (class Tags {})()], ['null', null], ['a number', 5]])(
    'refuses %s',
    (_label, value) => {
      expect(isPlainObject(value)).toBe(false);
    },
  );
});
