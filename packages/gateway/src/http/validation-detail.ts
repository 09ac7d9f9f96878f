/**
 * Turns ajv validation errors into FastAPI's 422 detail list, so clients
 * written against DeerFlow (or any FastAPI service) read them unchanged:
 * `[{ "loc": ["body", "thread_id"], "msg": "String should match pattern '…'", "type": "string_pattern_mismatch" }]`.
 * `loc` names the offending field; `msg` and `type` follow pydantic v2's wording.
 */

/** One entry of a 422 `detail` list. */
export interface ValidationIssue {
  /** Where the problem is: `["body" | "path" | "query" | "header", ...field names or array indexes]`. */
  readonly loc: ReadonlyArray<string | number>;
  readonly msg: string;
  readonly type: string;
}

/** The part of an ajv error this module reads. */
export interface AjvLikeError {
  readonly keyword: string;
  readonly instancePath: string;
  readonly params: Record<string, unknown>;
  readonly message?: string;
}

const LOCATIONS: Readonly<Record<string, string>> = {
  body: "body",
  params: "path",
  querystring: "query",
  headers: "header",
};

const TYPE_MESSAGES: Readonly<Record<string, [string, string]>> = {
  string: ["Input should be a valid string", "string_type"],
  integer: ["Input should be a valid integer", "int_type"],
  number: ["Input should be a valid number", "float_type"],
  boolean: ["Input should be a valid boolean", "bool_type"],
  object: ["Input should be a valid dictionary or object to extract fields from", "model_attributes_type"],
  array: ["Input should be a valid list", "list_type"],
  null: ["Input should be None", "none_required"],
};

function pathSegments(instancePath: string): Array<string | number> {
  if (instancePath === "") return [];
  return instancePath
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((s) => (/^(0|[1-9][0-9]*)$/.test(s) ? Number(s) : s));
}

function describe(error: AjvLikeError): { msg: string; type: string; field?: string } {
  const p = error.params;
  switch (error.keyword) {
    case "required":
      return { msg: "Field required", type: "missing", field: String(p["missingProperty"]) };
    case "additionalProperties":
      return { msg: "Extra inputs are not permitted", type: "extra_forbidden", field: String(p["additionalProperty"]) };
    case "type": {
      const known = TYPE_MESSAGES[String(p["type"])];
      return known
        ? { msg: known[0], type: known[1] }
        : { msg: `Input should be of type ${String(p["type"])}`, type: "type_error" };
    }
    case "pattern":
      return { msg: `String should match pattern '${String(p["pattern"])}'`, type: "string_pattern_mismatch" };
    case "minLength": {
      const n = Number(p["limit"]);
      return { msg: `String should have at least ${n} character${n === 1 ? "" : "s"}`, type: "string_too_short" };
    }
    case "maxLength": {
      const n = Number(p["limit"]);
      return { msg: `String should have at most ${n} character${n === 1 ? "" : "s"}`, type: "string_too_long" };
    }
    case "minimum":
      return { msg: `Input should be greater than or equal to ${String(p["limit"])}`, type: "greater_than_equal" };
    case "maximum":
      return { msg: `Input should be less than or equal to ${String(p["limit"])}`, type: "less_than_equal" };
    case "exclusiveMinimum":
      return { msg: `Input should be greater than ${String(p["limit"])}`, type: "greater_than" };
    case "exclusiveMaximum":
      return { msg: `Input should be less than ${String(p["limit"])}`, type: "less_than" };
    case "enum": {
      const allowed = Array.isArray(p["allowedValues"]) ? p["allowedValues"].map((v) => JSON.stringify(v)) : [];
      return { msg: `Input should be ${allowed.join(" or ")}`, type: "enum" };
    }
    case "const":
      return { msg: `Input should be ${JSON.stringify(p["allowedValue"])}`, type: "literal_error" };
    default:
      return { msg: error.message ?? "Invalid value", type: error.keyword };
  }
}

/** Keywords whose failure ajv reports after the errors of each of their branches. */
const UNION_KEYWORDS: ReadonlySet<string> = new Set(["anyOf", "oneOf"]);

/**
 * A union (`anyOf`, e.g. "an object or null") that no branch matched yields one
 * error per branch plus its own. Only the first branch's error at each place
 * is kept, as pydantic reports `dict | None` ("Input should be a valid
 * dictionary"). Elsewhere ajv stops at the first error, so nothing else is dropped.
 */
function withoutUnionEchoes(errors: readonly AjvLikeError[]): readonly AjvLikeError[] {
  const branches = errors.filter((e) => !UNION_KEYWORDS.has(e.keyword));
  if (branches.length === 0 || branches.length === errors.length) return errors;
  const seen = new Set<string>();
  return branches.filter((e) => {
    const key = `${e.instancePath}\u0000${String(e.params["missingProperty"] ?? e.params["additionalProperty"] ?? "")}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Converts ajv errors of one request part.
 *
 * @param errors - ajv errors (`FastifyError.validation`).
 * @param context - Fastify's `validationContext`: `body`, `params`, `querystring` or `headers`.
 * @returns the FastAPI-style issues, one per ajv error (one per place for a union no branch matched).
 * @example
 * ```ts
 * toValidationIssues([{ keyword: "required", instancePath: "", params: { missingProperty: "path" } }], "body");
 * // [{ loc: ["body", "path"], msg: "Field required", type: "missing" }]
 * ```
 */
export function toValidationIssues(errors: readonly AjvLikeError[], context: string | undefined): ValidationIssue[] {
  const root = LOCATIONS[context ?? "body"] ?? context ?? "body";
  return withoutUnionEchoes(errors).map((error) => {
    const { msg, type, field } = describe(error);
    const loc: Array<string | number> = [root, ...pathSegments(error.instancePath)];
    if (field !== undefined) loc.push(field);
    return { loc, msg, type };
  });
}
