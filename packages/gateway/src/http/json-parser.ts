/**
 * Content-type parsers of the gateway: JSON through Fastify's own
 * prototype-poisoning-safe parser, except that an empty body is `undefined`
 * (clients POST to body-less routes such as `/api/skills/reload` with a JSON
 * content type); `text/plain` is not accepted, so a wrong content type is a 415
 * rather than a string body failing validation.
 */
import type { FastifyInstance } from "fastify";

/**
 * Replaces the default parsers on `app` (child plugins inherit them).
 *
 * @param app - the root Fastify instance.
 * @param bodyLimit - the largest JSON body in bytes.
 */
export function installJsonParser(app: FastifyInstance, bodyLimit: number): void {
  const parse = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser(["application/json", "text/plain"]);
  app.addContentTypeParser("application/json", { parseAs: "string", bodyLimit }, (request, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text.trim() === "") {
      done(null, undefined);
      return;
    }
    // The default parser is the callback form; its type also admits the promise form.
    void parse(request, text, done);
  });
}
