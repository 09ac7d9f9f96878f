/**
 * A pino-compatible JSON logger writing to a stream, built on Fastify's own pino
 * (the gateway has no direct pino dependency), for logger-injection tests.
 */
import Fastify, { type FastifyBaseLogger } from "fastify";
import type { Writable } from "node:stream";

export default function pino(stream: Writable): FastifyBaseLogger {
  return Fastify({ logger: { level: "debug", stream } }).log;
}
