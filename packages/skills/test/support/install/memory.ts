/**
 * Test-only: runs `fn` while sampling the resident set size, and reports how
 * far it rose above the level measured just before `fn` started.
 */
export async function measureRssGrowth<T>(
  fn: () => Promise<T>,
): Promise<{ outcome: PromiseSettledResult<T>; growthBytes: number }> {
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  let outcome: PromiseSettledResult<T>;
  try {
    outcome = { status: "fulfilled", value: await fn() };
  } catch (reason) {
    outcome = { status: "rejected", reason };
  } finally {
    clearInterval(timer);
  }
  peak = Math.max(peak, process.memoryUsage.rss());
  return { outcome, growthBytes: peak - baseline };
}
