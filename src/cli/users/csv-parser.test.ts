import { describe, expect, it } from 'vitest';
import { CsvParser, CsvSyntaxError, type CsvRecord } from './csv-parser.js';

function parse(pieces: readonly string[]): CsvRecord[] {
  const parser = new CsvParser();
  return [...pieces.flatMap((piece) => parser.push(piece)), ...parser.end()];
}

const TEXT = '\uFEFFa,b,c\r\n"q ""x""",,""\r\n\r\n"two\r\nlines",é,\n\nlast,"",x';

describe('CsvParser', () => {
  it('parses quoted, doubled quotes, empty and quoted-empty cells, CRLF, blank lines and a last line without a break', () => {
    expect(parse([TEXT])).toEqual([
      { line: 1, cells: [{ value: 'a', quoted: false }, { value: 'b', quoted: false }, { value: 'c', quoted: false }] },
      { line: 2, cells: [{ value: 'q "x"', quoted: true }, { value: '', quoted: false }, { value: '', quoted: true }] },
      { line: 4, cells: [{ value: 'two\r\nlines', quoted: true }, { value: 'é', quoted: false }, { value: '', quoted: false }] },
      { line: 7, cells: [{ value: 'last', quoted: false }, { value: '', quoted: true }, { value: 'x', quoted: false }] },
    ]);
  });

  it('gives the same records however the text is split into pieces', () => {
    const whole = parse([TEXT]);
    for (const size of [1, 2, 3, 7]) {
      const pieces: string[] = [];
      for (let at = 0; at < TEXT.length; at += size) pieces.push(TEXT.slice(at, at + size));
      expect(parse(pieces), `pieces of ${size}`).toEqual(whole);
    }
  });

  it('refuses a quote in an unquoted cell, text after a closing quote, and an unclosed quote, with the line', () => {
    const failure = (text: string) => {
      try {
        parse([text]);
      } catch (error) {
        return error instanceof CsvSyntaxError ? `${error.line}: ${error.message.split(':')[0]}` : String(error);
      }
      return 'no error';
    };
    expect(failure('a,b\nx"y,z\n')).toBe('2: Invalid Opening Quote');
    expect(failure('a,b\n"x"y,z\n')).toBe('2: Invalid Closing Quote');
    expect(failure('a,b\n\n"x,\nz\n')).toBe('3: Quote Not Closed');
  });
});
