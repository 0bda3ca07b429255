/**
 * Calls `write` with the latest value at most once per interval (progress writes during a crawl
 * must not cost a database round trip per page). `flush()` writes the last value now.
 */
export function throttle<T>(intervalMs: number, write: (value: T) => Promise<void>) {
  let last = 0;
  let pending: { value: T } | null = null;
  let running: Promise<void> = Promise.resolve();
  const push = () => {
    if (!pending) return running;
    const { value } = pending;
    pending = null;
    last = Date.now();
    running = running.then(() => write(value)).catch(() => {});
    return running;
  };
  const report = (value: T) => {
    pending = { value };
    if (Date.now() - last >= intervalMs) void push();
  };
  return Object.assign(report, { flush: () => push() });
}
