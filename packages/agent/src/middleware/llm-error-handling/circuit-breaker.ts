/**
 * A circuit breaker per model (DeerFlow's `circuit_breaker:` keys): after
 * `failure_threshold` transient failures in a row the model's calls fail at
 * once for `recovery_timeout_sec`; then one trial call is let through (half
 * open), and its success closes the circuit again while its failure reopens it.
 * A provider that is down then costs one fast failure per call instead of
 * every run's full retry schedule.
 */

/** `circuit_breaker:` settings. */
export interface CircuitBreakerSettings {
  /** `circuit_breaker.failure_threshold`: transient failures in a row that open the circuit (≥ 1). Default 5. */
  readonly failureThreshold?: number;
  /** `circuit_breaker.recovery_timeout_sec`: how long an open circuit refuses calls. Default 60. */
  readonly recoveryTimeoutSec?: number;
}

/** A model's circuit. */
export class CircuitBreaker {
  readonly #threshold: number;
  readonly #recoveryMs: number;
  readonly #now: () => number;
  #failures = 0;
  #openUntil = 0;
  #trialInFlight = false;

  /**
   * @param settings - threshold and recovery timeout
   * @param now - the clock (tests inject one)
   */
  constructor(settings: CircuitBreakerSettings = {}, now: () => number = Date.now) {
    this.#threshold = Math.max(1, Math.trunc(settings.failureThreshold ?? 5));
    this.#recoveryMs = Math.max(0, (settings.recoveryTimeoutSec ?? 60) * 1000);
    this.#now = now;
  }

  /** The failure threshold in force. */
  get threshold(): number {
    return this.#threshold;
  }

  /**
   * Whether a call may go out now; while open it may not, and once the timeout
   * has passed exactly one trial call may.
   *
   * @returns `0` when allowed, else the ms until the circuit may be tried again
   */
  acquire(): number {
    if (this.#failures < this.#threshold) return 0;
    const wait = this.#openUntil - this.#now();
    if (wait > 0) return wait;
    if (this.#trialInFlight) return 1;
    this.#trialInFlight = true;
    return 0;
  }

  /** A call succeeded: the circuit closes. */
  succeeded(): void {
    this.#failures = 0;
    this.#trialInFlight = false;
  }

  /** A call failed transiently: counted, and the circuit opens (again) at the threshold. */
  failed(): void {
    this.#trialInFlight = false;
    this.#failures = Math.min(this.#failures + 1, this.#threshold);
    if (this.#failures >= this.#threshold) this.#openUntil = this.#now() + this.#recoveryMs;
  }

  /** A call ended without a verdict on the provider (a fatal error, an abort): a trial slot is freed. */
  released(): void {
    this.#trialInFlight = false;
  }
}
