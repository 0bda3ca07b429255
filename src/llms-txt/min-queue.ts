// The priority queue of the site map's shortest paths (site-map.ts).

/** A binary heap; equal priorities leave in the order they came in. */
export class MinQueue<T> {
  private readonly heap: Array<{ item: T; priority: number; seq: number }> = [];
  private seq = 0;

  push(item: T, priority: number) {
    this.heap.push({ item, priority, seq: this.seq++ });
    let i = this.heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      [this.heap[i], this.heap[parent]] = [this.heap[parent], this.heap[i]];
      i = parent;
    }
  }

  pop(): T | undefined {
    const top = this.heap[0];
    const last = this.heap.pop();
    if (this.heap.length > 0 && last) {
      this.heap[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < this.heap.length && this.less(left, smallest)) smallest = left;
        if (right < this.heap.length && this.less(right, smallest)) smallest = right;
        if (smallest === i) break;
        [this.heap[i], this.heap[smallest]] = [this.heap[smallest], this.heap[i]];
        i = smallest;
      }
    }
    return top?.item;
  }

  private less(a: number, b: number): boolean {
    const x = this.heap[a];
    const y = this.heap[b];
    return x.priority < y.priority || (x.priority === y.priority && x.seq < y.seq);
  }
}
