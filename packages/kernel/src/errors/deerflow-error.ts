/**
 * The base of every typed error of the `@deerflow/*` packages.
 *
 * Each package bundles its own copy of this kernel, and an application may load
 * two versions of one package, so `instanceof` cannot tell errors apart. The
 * brands can: they are registry symbols (`Symbol.for`), the same in every copy
 * and every realm. Every error carries the shared `@deerflow/error` brand and
 * the brand of each class it is an instance of; `isInstance` reads them.
 */

const DEERFLOW_ERROR = Symbol.for("@deerflow/error");

/** What {@link DeerflowError}'s constructor takes besides the code and message. */
export interface DeerflowErrorOptions {
  /** The error this one wraps (`Error.cause`). */
  readonly cause?: unknown;
  /** Structured detail for callers and HTTP layers (never host paths or secrets). */
  readonly details?: Record<string, unknown>;
}

/**
 * Base class of the packages' errors: a stable `code`, optional `details` and
 * `cause`, and brands that survive duplicate package copies.
 *
 * A subclass declares its own brand and name, and nothing else unless it adds
 * fields; forgetting the brand is caught the first time one is constructed
 * (otherwise `Sub.isInstance` would answer for the parent's brand).
 *
 * @example
 * ```ts
 * export class RuntimeError extends DeerflowError<RuntimeErrorCode> {
 *   static override readonly brand: symbol = Symbol.for("@deerflow/runtime/error");
 *   override name = "RuntimeError";
 * }
 * if (RuntimeError.isInstance(err) && err.code === "THREAD_BUSY") reply.code(409);
 * ```
 */
export class DeerflowError<Code extends string = string> extends Error {
  /** The brand of this class; every subclass declares its own `Symbol.for("@deerflow/<package>/...")`. */
  static readonly brand: symbol = DEERFLOW_ERROR;

  /** Stable machine-readable code. */
  readonly code: Code;
  /** Structured detail for callers and HTTP layers. */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  /**
   * @param code - stable code callers switch on.
   * @param message - human-readable message naming the offending value.
   * @param options - optional `cause` and structured `details`.
   * @throws TypeError when a subclass does not declare its own static `brand`.
   */
  constructor(code: Code, message: string, options?: DeerflowErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "DeerflowError";
    this.code = code;
    this.details = options?.details;
    Object.defineProperty(this, DEERFLOW_ERROR, { value: true });
    for (let ctor: unknown = new.target; ctor !== DeerflowError; ctor = Object.getPrototypeOf(ctor)) {
      const cls = ctor as { readonly name: string; readonly brand: symbol };
      if (!Object.hasOwn(cls, "brand"))
        throw new TypeError(
          `${cls.name} must declare its own static brand (Symbol.for("@deerflow/<package>/<error>"))`,
        );
      Object.defineProperty(this, cls.brand, { value: true });
    }
  }

  /**
   * Brand check that survives duplicate package copies (unlike `instanceof`).
   *
   * @param value - anything thrown or returned.
   * @returns whether `value` was constructed by this class (in any copy) or a subclass of it.
   */
  static isInstance<T>(this: { readonly brand: symbol; readonly prototype: T }, value: unknown): value is T {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[this.brand] === true;
  }
}

/**
 * True for any error created by a `@deerflow/*` package, whichever copy made it.
 *
 * @param value - anything thrown.
 * @returns whether it carries the shared `@deerflow/error` brand.
 */
export function isDeerflowError(value: unknown): value is Error & { code: string } {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[DEERFLOW_ERROR] === true;
}
