/**
 * Refusal of a new password that passes the schema's length rule but not
 * the policy, as a 422 in the validation format.
 */
import { GatewayError } from "../errors.js";
import { passwordProblem } from "./password-policy.js";

/**
 * @param password - the new password.
 * @param field - its body field, for `loc`.
 * @throws GatewayError `VALIDATION_FAILED` when {@link passwordProblem} finds one.
 */
export function checkNewPassword(password: string, field: string): void {
  const problem = passwordProblem(password);
  if (problem === undefined) return;
  throw new GatewayError("VALIDATION_FAILED", problem, {
    detail: [{ loc: ["body", field], msg: `Value error, ${problem}`, type: "value_error" }],
  });
}
