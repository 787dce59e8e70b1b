import { describe, expect, it } from 'vitest';
import { onFirstTouch } from './on-first-touch.js';

describe('onFirstTouch', () => {
  it('makes nothing until a property is read, then makes the object once', () => {
    let made = 0;
    const value = onFirstTouch(() => {
      made += 1;
      return { greeting: 'hi', greet(name: string) { return `${this.greeting}, ${name}`; } };
    });
    expect(made).toBe(0);
    expect(value.greet('Ada')).toBe('hi, Ada');
    expect(value.greeting).toBe('hi');
    expect(made).toBe(1);
    expect(Object.keys(value)).toEqual(['greeting', 'greet']);
  });

  it('becomes the object on a lookup with `in` too, prototype and all', () => {
    class Point {
      constructor(readonly x: number) {}
      get double() {
        return this.x * 2;
      }
    }
    const point = onFirstTouch(() => new Point(2));
    expect('x' in point).toBe(true);
    expect(Object.getPrototypeOf(point)).toBe(Point.prototype);
    expect(point).toBeInstanceOf(Point);
    expect(point.double).toBe(4);
    expect('y' in point).toBe(false);
  });

  it('keeps a property that cannot be redefined as it was', () => {
    const real = Object.defineProperty({}, 'fixed', { value: 1, enumerable: false });
    const value = onFirstTouch(() => real) as { fixed?: number };
    expect(value.fixed).toBe(1);
    expect(Object.getOwnPropertyDescriptor(value, 'fixed')).toEqual({ value: 1, writable: false, enumerable: false, configurable: false });
  });
});
