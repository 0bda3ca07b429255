/**
 * Loads of one key under way, shared: callers that ask while one is under way get its answer.
 * The read caches use it so that the clients polling one row, when its entry expires, cost one
 * database round trip instead of one each.
 */
export class SharedLoads<T> {
  private readonly underWay = new Map<string, Promise<T>>();

  load(key: string, load: () => Promise<T>): Promise<T> {
    const pending = this.underWay.get(key);
    if (pending) return pending;
    const loading = load();
    this.underWay.set(key, loading);
    const settled = () => this.underWay.get(key) === loading && this.underWay.delete(key);
    loading.then(settled, settled);
    return loading;
  }

  /** Callers from now on start a load of their own (what is under way may predate a change). */
  forget(key?: string): void {
    if (key === undefined) this.underWay.clear();
    else this.underWay.delete(key);
  }
}
