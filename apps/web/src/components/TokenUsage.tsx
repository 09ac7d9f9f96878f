/**
 * The thread's token usage: totals over all its model calls and the counts of
 * its latest run, read live from the thread's `values` (`token_usage` and
 * `run_token_usage`, kept by the agent's TokenUsageMiddleware; the same numbers
 * `GET /api/threads/:id/token-usage` answers).
 */

/** Counts as the agent keeps them. */
export interface TokenUsageCounts {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly total_tokens: number;
  readonly llm_call_count: number;
}

const number = new Intl.NumberFormat("en-US");

function Row({ label, usage, testId }: { label: string; usage: TokenUsageCounts; testId: string }) {
  const calls = `${usage.llm_call_count} model call${usage.llm_call_count === 1 ? "" : "s"}`;
  return (
    <div data-testid={testId}>
      <dt>{label}</dt>
      <dd>
        {number.format(usage.total_tokens)} tokens{" "}
        <span className="muted">
          ({number.format(usage.input_tokens)} in, {number.format(usage.output_tokens)} out, {calls})
        </span>
      </dd>
    </div>
  );
}

/** The usage panel; nothing before the thread's first counted model call. */
export function TokenUsage({
  thread,
  run,
}: {
  thread?: TokenUsageCounts | undefined;
  run?: TokenUsageCounts | undefined;
}) {
  if (thread === undefined || thread.llm_call_count === 0) return null;
  return (
    <section className="token-usage" aria-labelledby="token-usage-title" data-testid="token-usage">
      <h2 id="token-usage-title">Token usage</h2>
      <dl>
        <Row label="This thread" usage={thread} testId="token-usage-thread" />
        {run !== undefined && run.llm_call_count > 0 ? (
          <Row label="Latest run" usage={run} testId="token-usage-run" />
        ) : null}
      </dl>
    </section>
  );
}
