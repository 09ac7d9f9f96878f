/**
 * `@deerflow/runtime/redis`: the Redis Streams bridge and the Redis run
 * coordinator, for deployments of many instances. Requires `ioredis` (an
 * optional peer dependency).
 *
 * @packageDocumentation
 */
export { RedisStreamBridge } from "./stream/redis-stream-bridge.js";
export type { RedisStreamBridgeCommonOptions, RedisStreamBridgeOptions } from "./stream/redis-bridge-options.js";
export {
  RedisRunCoordinator,
  type RedisRunCoordinatorBaseOptions,
  type RedisRunCoordinatorOptions,
} from "./coordination/redis-run-coordinator.js";
