/**
 * A {@link CommandRunner} wrapper for the ripgrep tests: passes every call
 * through and keeps what the read-only commands (ripgrep listings) returned.
 */
import type { CommandRunner, CommandSpec, ExecuteResult } from "../../src/index.js";

/** Records ripgrep listings run through it. */
export class ObservedRunner implements CommandRunner {
  readonly kind: string;
  readonly isolated: boolean;
  /** Results of `readOnly` commands, in call order. */
  readonly listings: ExecuteResult[] = [];
  readonly baseEnvironment?: () => Record<string, string>;

  /** @param inner - The runner doing the work. */
  constructor(private readonly inner: CommandRunner) {
    this.kind = inner.kind;
    this.isolated = inner.isolated;
    const base = inner.baseEnvironment?.bind(inner);
    if (base !== undefined) this.baseEnvironment = base;
  }

  async run(spec: CommandSpec): Promise<ExecuteResult> {
    const result = await this.inner.run(spec);
    if (spec.readOnly === true) this.listings.push(result);
    return result;
  }
}
