/**
 * A loop that runs `round` every `intervalMs`, never two rounds at once, in the processes that
 * run jobs (webhook deliveries, scheduled refreshes). A failed round is logged and the next one
 * comes at its time. Answers the function that stops it, which waits for the round under way.
 */
export function runEvery(intervalMs: number, round: () => Promise<void>, onError: (error: unknown) => void): () => Promise<void> {
  let current: Promise<void> = Promise.resolve();
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    current = round()
      .catch(onError)
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await current;
  };
}
