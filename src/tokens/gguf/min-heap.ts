// A binary min-heap ordered by a comparator: the merge queues of both tokenizers, so a word of n
// symbols is merged in O(n log n) rather than by rescanning all pairs after each merge.
export class MinHeap<T> {
  private readonly items: T[] = [];
  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  push(item: T): void {
    const items = this.items;
    items.push(item);
    let at = items.length - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.before(items[at]!, items[parent]!)) break;
      [items[at], items[parent]] = [items[parent]!, items[at]!];
      at = parent;
    }
  }

  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last !== undefined) {
      items[0] = last;
      let at = 0;
      for (;;) {
        const left = at * 2 + 1;
        const right = left + 1;
        let first = at;
        if (left < items.length && this.before(items[left]!, items[first]!)) first = left;
        if (right < items.length && this.before(items[right]!, items[first]!)) first = right;
        if (first === at) break;
        [items[at], items[first]] = [items[first]!, items[at]!];
        at = first;
      }
    }
    return top;
  }
}
