/** Typed errors of the web tools' providers; the message is the text the model reads. */
import { DeerflowError } from "@deerflow/kernel";

/** Stable codes of {@link WebToolError}. */
export type WebToolErrorCode =
  /** HTTP 429: rate limit or quota used up. */
  | "PROVIDER_QUOTA"
  /** HTTP 401/403: the API key is missing, wrong or lacks access. */
  | "PROVIDER_AUTH"
  /** No answer within the tool's `timeout`. */
  | "PROVIDER_TIMEOUT"
  /** Any other non-2xx answer, or a connection failure. */
  | "PROVIDER_HTTP"
  /** A 2xx answer that is not what the provider's API documents. */
  | "PROVIDER_RESPONSE"
  /** A provider that needs an API key has none (neither `api_key` nor its environment variable). */
  | "PROVIDER_NO_KEY";

/** Why a provider call failed. */
export class WebToolError extends DeerflowError<WebToolErrorCode> {
  static override readonly brand: symbol = Symbol.for("@deerflow/tools/web-tool-error");
  override name = "WebToolError";
}
