/**
 * The model of the lead agent under load: the gateway benchmark's fake chat
 * model (the same 20 streamed tokens, no tool calls, no sleeps), able to have
 * tools bound as `createAgent` needs. Loaded by the server as a `use:` plugin.
 */
import { FakeStreamingChatModel } from "../gateway/graph.js";

/** The gateway benchmark's model; binding tools changes nothing (it never calls them). */
export class FastModel extends FakeStreamingChatModel {
  override bindTools(): this {
    return this;
  }
}
