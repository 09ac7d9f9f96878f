/**
 * The gateway's enforcement of an {@link AuthorizationProvider}: what DeerFlow
 * does around its provider (`app/gateway/authz.py`). A provider error, or an
 * answer that is not a decision, is logged and denies when `failClosed`
 * (DeerFlow's default) — else allows, with a warning. Routes and the models
 * routes ask through here; the server hands the same provider to the agent.
 */
import { silentLogger, type Logger } from "@deerflow/kernel";
import { roleOf, type Principal } from "../auth/principal.js";
import { GatewayError } from "../errors.js";
import type { AuthorizationDecision, AuthorizationProvider, AuthorizationSubject } from "./authorization-provider.js";

/** Options of {@link Authorization} (`authorization:` of `config.yaml`). */
export interface AuthorizationOptions {
  readonly provider: AuthorizationProvider;
  /** Deny when the provider fails (`fail_closed`). Default true. */
  readonly failClosed?: boolean;
  readonly logger?: Logger;
}

/** What is being decided, for logs. */
type Resource = "route" | "tool" | "model";

/** DeerFlow's text when a role may use no model at all. */
export const NO_AUTHORIZED_MODEL_MESSAGE = "No models are authorized for the current role.";

/**
 * The 403 detail of a denied route (DeerFlow's).
 *
 * @param permission - e.g. `threads:delete`
 * @returns `Permission denied: threads:delete`
 */
export function permissionDeniedMessage(permission: string): string {
  return `Permission denied: ${permission}`;
}

function isDecision(value: unknown): value is AuthorizationDecision {
  return typeof value === "object" && value !== null && typeof (value as AuthorizationDecision).allow === "boolean";
}

/** The subject of a principal: its user and role (`roleOf`: its own, else `admin` or `user`). */
export function subjectOf(principal: Principal): AuthorizationSubject {
  return { role: roleOf(principal), userId: principal.userId };
}

/** A provider with fail-closed handling. */
export class Authorization {
  readonly provider: AuthorizationProvider;
  readonly failClosed: boolean;
  readonly #logger: Logger;

  /** @param options - the provider, `failClosed` (default true), a logger */
  constructor(options: AuthorizationOptions) {
    this.provider = options.provider;
    this.failClosed = options.failClosed ?? true;
    this.#logger = options.logger ?? silentLogger;
  }

  /**
   * The provider's decision; a failure decides by `failClosed`.
   *
   * @param resource - which of the provider's questions
   * @param subject - who asks
   * @param target - the permission, tool or model name
   * @returns whether it is allowed
   */
  async allows(resource: Resource, subject: AuthorizationSubject, target: string): Promise<boolean> {
    try {
      const p = this.provider;
      const decision: unknown = await (resource === "route"
        ? p.allowsRoute(subject, target)
        : resource === "tool"
          ? p.allowsTool(subject, target)
          : p.allowsModel(subject, target));
      if (!isDecision(decision)) throw new TypeError(`${p.name}: the provider's answer is not a decision`);
      return decision.allow;
    } catch (err) {
      this.#logger.warn(
        { err, provider: this.provider.name, resource, target, role: subject.role, failClosed: this.failClosed },
        `authorization provider failed on ${resource} '${target}': ${this.failClosed ? "denied" : "allowed"}`,
      );
      return !this.failClosed;
    }
  }

  /**
   * May the caller use routes of this permission?
   *
   * @param principal - `request.principal`
   * @param permission - e.g. `runs:create`
   */
  allowsRoute(principal: Principal, permission: string): Promise<boolean> {
    return this.allows("route", subjectOf(principal), permission);
  }

  /** May the caller list and use this model? */
  allowsModel(principal: Principal, modelName: string): Promise<boolean> {
    return this.allows("model", subjectOf(principal), modelName);
  }

  /**
   * The model a run of this caller uses: the requested one (or the default when none or an
   * unknown one is requested, as the agent does) when allowed, else the first allowed model
   * (DeerFlow's fallback, logged).
   *
   * @param principal - the caller
   * @param requested - the run's `model_name`, if any
   * @param names - the configured models, the default first
   * @returns the name to run with
   * @throws GatewayError `FORBIDDEN` (403) when the caller may use no model
   */
  async runModel(principal: Principal, requested: string | undefined, names: readonly string[]): Promise<string> {
    const wanted = requested !== undefined && names.includes(requested) ? requested : names[0];
    if (wanted === undefined) return requested ?? "";
    if (await this.allowsModel(principal, wanted)) return wanted;
    for (const name of names) {
      if (name === wanted || !(await this.allowsModel(principal, name))) continue;
      this.#logger.warn(
        { model: wanted, fallback: name, role: roleOf(principal), userId: principal.userId },
        `Model '${wanted}' is not authorized for the current role; fallback to '${name}'.`,
      );
      return name;
    }
    throw new GatewayError("FORBIDDEN", NO_AUTHORIZED_MODEL_MESSAGE);
  }
}
