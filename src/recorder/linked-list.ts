/**
 * A node of a {@link LinkedList}: the object itself carries its links, so that moving it
 * costs a few field writes and no allocation.
 */
export interface ListNode<N> {
  previous: N | undefined;
  next: N | undefined;
}

/**
 * A doubly linked list of nodes that carry their own links: append at the end and take
 * out anywhere in O(1). The recorder keeps conversations in order of last activity with
 * it (the open ones of a process, and the memory store's), so that the idlest is the first;
 * a conversation keeps its open turns' records in it, in the order they started.
 *
 * @example
 * ```ts
 * const list = new LinkedList<{ previous: Node | undefined; next: Node | undefined }>();
 * list.append(node);
 * list.moveToEnd(list.head!);
 * ```
 */
export class LinkedList<N extends ListNode<N>> {
  head: N | undefined;
  tail: N | undefined;

  /** Adds `node`, which is in no list, at the end. */
  append(node: N): void {
    node.previous = this.tail;
    node.next = undefined;
    if (this.tail === undefined) this.head = node;
    else this.tail.next = node;
    this.tail = node;
  }

  /** Takes `node` out of this list (nothing when it is in none). */
  unlink(node: N): void {
    if (node.previous === undefined) {
      if (this.head === node) this.head = node.next;
    } else {
      node.previous.next = node.next;
    }
    if (node.next === undefined) {
      if (this.tail === node) this.tail = node.previous;
    } else {
      node.next.previous = node.previous;
    }
    node.previous = undefined;
    node.next = undefined;
  }

  /** Moves `node`, which is in this list, to its end. */
  moveToEnd(node: N): void {
    if (this.tail === node) return;
    this.unlink(node);
    this.append(node);
  }
}
