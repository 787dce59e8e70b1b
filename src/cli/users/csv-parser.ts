/** One cell: its text, and whether it was quoted (`""` is an empty string, an empty unquoted cell no value). */
export interface Cell {
  value: string;
  quoted: boolean;
}

/** One record and the line it starts on. */
export interface CsvRecord {
  line: number;
  cells: Cell[];
}

/** A CSV that breaks RFC 4180, at `line`. */
export class CsvSyntaxError extends Error {
  override name = 'CsvSyntaxError';
  readonly line: number;

  constructor(line: number, message: string) {
    super(message);
    this.line = line;
  }
}

type State = 'cellStart' | 'unquoted' | 'quoted' | 'quoteInQuoted';

const UNQUOTED_STOP = /[,\r\n"]/g;

/**
 * A streaming RFC 4180 parser for users files: text goes in as it is read, records come
 * out whole with the line each starts on, and only the record being read is held. Commas
 * separate cells, `"` quotes a cell (doubled inside it), CRLF, LF or CR end a record, a
 * quoted cell may span lines, empty lines are skipped and a byte-order mark is dropped.
 * It knows whether each cell was quoted, which is what tells `""` (an empty string) from
 * an empty cell (no value); csv-parse can say so only through a per-cell context object
 * that made a million rows take minutes.
 *
 * @example
 * ```ts
 * const parser = new CsvParser();
 * const records = [...parser.push('end_user,active_from\nu-1,'), ...parser.push('2026-01-01\n'), ...parser.end()];
 * ```
 */
export class CsvParser {
  #state: State = 'cellStart';
  #cells: Cell[] = [];
  #value = '';
  #line = 1;
  #recordLine = 1;
  #started = false;
  #afterCr = false;
  #first = true;

  /** Parses the next piece of text; returns the records it completed. */
  push(text: string): CsvRecord[] {
    const records: CsvRecord[] = [];
    let chunk = text;
    if (this.#first && chunk.length > 0) {
      this.#first = false;
      if (chunk.startsWith('\uFEFF')) chunk = chunk.slice(1);
    }
    let index = 0;
    while (index < chunk.length) {
      const char = chunk[index]!;
      if (this.#afterCr) {
        this.#afterCr = false;
        if (char === '\n') {
          index += 1;
          continue;
        }
      }
      switch (this.#state) {
        case 'cellStart':
          if (!this.#started) {
            if (char === '\r' || char === '\n') {
              this.#newline(char);
              index += 1;
              continue; // an empty line
            }
            this.#started = true;
            this.#recordLine = this.#line;
          }
          if (char === '"') {
            this.#state = 'quoted';
            index += 1;
          } else this.#state = 'unquoted';
          continue;
        case 'unquoted': {
          UNQUOTED_STOP.lastIndex = index;
          const stop = UNQUOTED_STOP.exec(chunk);
          const end = stop === null ? chunk.length : stop.index;
          this.#value += chunk.slice(index, end);
          index = end;
          if (stop === null) continue;
          if (stop[0] === '"') {
            throw new CsvSyntaxError(this.#line, 'Invalid Opening Quote: a quote in a cell that does not start with one; quote the whole cell and double the quote ("")');
          }
          index += 1;
          this.#endCell(false, stop[0], records);
          continue;
        }
        case 'quoted': {
          const quote = chunk.indexOf('"', index);
          const end = quote === -1 ? chunk.length : quote;
          const piece = chunk.slice(index, end);
          for (const c of piece) if (c === '\n') this.#line += 1;
          this.#value += piece;
          index = end;
          if (quote !== -1) {
            this.#state = 'quoteInQuoted';
            index += 1;
          }
          continue;
        }
        case 'quoteInQuoted':
          index += 1;
          if (char === '"') {
            this.#value += '"';
            this.#state = 'quoted';
          } else if (char === ',' || char === '\r' || char === '\n') {
            this.#endCell(true, char, records);
          } else {
            throw new CsvSyntaxError(this.#line, `Invalid Closing Quote: ${JSON.stringify(char)} follows the closing quote of a cell`);
          }
          continue;
      }
    }
    return records;
  }

  /** Ends the input; returns the last record when it had no line break. */
  end(): CsvRecord[] {
    if (this.#state === 'quoted') throw new CsvSyntaxError(this.#recordLine, 'Quote Not Closed: a quoted cell is not closed before the end of the file');
    if (!this.#started) return [];
    this.#cells.push({ value: this.#value, quoted: this.#state === 'quoteInQuoted' });
    return [this.#take()];
  }

  #newline(char: string): void {
    this.#line += 1;
    if (char === '\r') this.#afterCr = true;
  }

  #endCell(quoted: boolean, delimiter: string, records: CsvRecord[]): void {
    this.#cells.push({ value: this.#value, quoted });
    this.#value = '';
    this.#state = 'cellStart';
    if (delimiter === ',') return;
    records.push(this.#take());
    this.#newline(delimiter);
  }

  #take(): CsvRecord {
    const record = { line: this.#recordLine, cells: this.#cells };
    this.#cells = [];
    this.#started = false;
    this.#state = 'cellStart';
    return record;
  }
}
