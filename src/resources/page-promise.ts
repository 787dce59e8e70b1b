/** What a page of a paged endpoint carries: its items, and how many there are in all when told. */
export interface PageLike<Item> {
  data: Item[];
  total?: number | undefined;
}

/**
 * The answer of a paged list, two ways (openai-node's `PagePromise` pattern): awaited, the
 * page asked for; iterated with `for await`, every item of that page and of every page
 * after it, asked one at a time as the loop reaches it. Nothing is asked until one or the
 * other starts, and the first page is asked once for both.
 *
 * Paging stops at an empty page, once `offset + items seen` reaches `total`, or, when the
 * service gives no `total`, at a page shorter than `limit`.
 *
 * @example
 * ```ts
 * const page = await nebuly.interactions.list({ time_range });           // { total, data }
 * for await (const row of nebuly.interactions.list({ time_range })) {}  // every row
 * ```
 */
export class PagePromise<Page extends PageLike<Item>, Item> implements PromiseLike<Page>, AsyncIterable<Item> {
  readonly #fetchPage: (offset: number) => Promise<Page>;
  readonly #offset: number;
  readonly #limit: number;
  #first: Promise<Page> | undefined;

  /**
   * @internal Made by the resources.
   * @param fetchPage Asks the page starting at `offset`.
   */
  constructor(fetchPage: (offset: number) => Promise<Page>, offset: number, limit: number) {
    this.#fetchPage = fetchPage;
    this.#offset = offset;
    this.#limit = limit;
  }

  #firstPage(): Promise<Page> {
    this.#first ??= this.#fetchPage(this.#offset);
    return this.#first;
  }

  /** The first page: `await list(…)`. */
  then<R1 = Page, R2 = never>(
    onFulfilled?: ((page: Page) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#firstPage().then(onFulfilled, onRejected);
  }

  /** The first page, or what `onRejected` makes of its failure. */
  catch<R = never>(onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<Page | R> {
    return this.#firstPage().catch(onRejected);
  }

  /** The first page, running `onFinally` once it settles. */
  finally(onFinally?: (() => void) | null): Promise<Page> {
    return this.#firstPage().finally(onFinally);
  }

  /** Every item of every page from the first: `for await (const item of list(…))`. */
  async *[Symbol.asyncIterator](): AsyncIterator<Item> {
    let page = await this.#firstPage();
    let offset = this.#offset;
    for (;;) {
      yield* page.data;
      offset += page.data.length;
      const done =
        page.data.length === 0 || (page.total === undefined ? page.data.length < this.#limit : offset >= page.total);
      if (done) return;
      page = await this.#fetchPage(offset);
    }
  }
}
