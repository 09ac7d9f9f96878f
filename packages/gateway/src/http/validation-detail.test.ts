import { describe, expect, it } from "vitest";
import { toValidationIssues } from "./validation-detail.js";

describe("toValidationIssues", () => {
  it("names a missing body field in loc", () => {
    expect(
      toValidationIssues([{ keyword: "required", instancePath: "", params: { missingProperty: "path" } }], "body"),
    ).toEqual([{ loc: ["body", "path"], msg: "Field required", type: "missing" }]);
  });

  it("names an unknown member as extra_forbidden", () => {
    expect(
      toValidationIssues(
        [{ keyword: "additionalProperties", instancePath: "", params: { additionalProperty: "evil" } }],
        "body",
      ),
    ).toEqual([{ loc: ["body", "evil"], msg: "Extra inputs are not permitted", type: "extra_forbidden" }]);
  });

  it("maps path params to 'path' and nested pointers to segments with array indexes", () => {
    const [issue] = toValidationIssues(
      [{ keyword: "type", instancePath: "/items/2/a~1b", params: { type: "integer" } }],
      "params",
    );
    expect(issue).toEqual({
      loc: ["path", "items", 2, "a/b"],
      msg: "Input should be a valid integer",
      type: "int_type",
    });
  });

  it("maps the query string to 'query' and quotes the pattern", () => {
    const [issue] = toValidationIssues(
      [{ keyword: "pattern", instancePath: "/thread_id", params: { pattern: "^[a-z]+$" } }],
      "querystring",
    );
    expect(issue).toEqual({
      loc: ["query", "thread_id"],
      msg: "String should match pattern '^[a-z]+$'",
      type: "string_pattern_mismatch",
    });
  });

  it.each([
    ["minLength", { limit: 1 }, "String should have at least 1 character", "string_too_short"],
    ["maxLength", { limit: 64 }, "String should have at most 64 characters", "string_too_long"],
    ["minimum", { limit: 0 }, "Input should be greater than or equal to 0", "greater_than_equal"],
    ["maximum", { limit: 9 }, "Input should be less than or equal to 9", "less_than_equal"],
    ["enum", { allowedValues: ["a", "b"] }, 'Input should be "a" or "b"', "enum"],
  ])("words %s like pydantic", (keyword, params, msg, type) => {
    expect(toValidationIssues([{ keyword, instancePath: "/x", params }], "body")[0]).toEqual({
      loc: ["body", "x"],
      msg,
      type,
    });
  });

  it("reports a union no branch matched (object or null) once, with its first branch's wording", () => {
    const errors = [
      { keyword: "type", instancePath: "/input", params: { type: "object" } },
      { keyword: "enum", instancePath: "/input", params: { allowedValues: [null] } },
      { keyword: "anyOf", instancePath: "/input", params: {}, message: "must match a schema in anyOf" },
    ];
    expect(toValidationIssues(errors, "body")).toEqual([
      {
        loc: ["body", "input"],
        msg: "Input should be a valid dictionary or object to extract fields from",
        type: "model_attributes_type",
      },
    ]);
  });

  it("keeps a union's own error when ajv reports nothing else", () => {
    expect(
      toValidationIssues(
        [{ keyword: "anyOf", instancePath: "/x", params: {}, message: "must match a schema in anyOf" }],
        "body",
      ),
    ).toEqual([{ loc: ["body", "x"], msg: "must match a schema in anyOf", type: "anyOf" }]);
  });

  it("falls back to ajv's message and keyword for other keywords", () => {
    expect(
      toValidationIssues(
        [{ keyword: "format", instancePath: "/u", params: {}, message: 'must match format "uri"' }],
        "headers",
      )[0],
    ).toEqual({
      loc: ["header", "u"],
      msg: 'must match format "uri"',
      type: "format",
    });
  });
});
