/** Small real LangGraph graphs for worker tests. */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { Annotation, END, interrupt, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import type { GraphFactory, StreamableGraph } from "../../../src/worker/types.js";

/** Narrows a compiled graph or agent to the worker's view of it. */
export function asStreamable(graph: unknown): StreamableGraph {
  return graph as StreamableGraph;
}

/** START → model → END; the node reports progress through `config.writer`. */
export function chatGraph(model: BaseChatModel, checkpointer?: BaseCheckpointSaver): StreamableGraph {
  return asStreamable(
    new StateGraph(MessagesAnnotation)
      .addNode("model", async (state, config) => {
        config.writer?.({ progress: "model-start", count: state.messages.length });
        const reply = await model.invoke(state.messages, config);
        return { messages: [reply] };
      })
      .addEdge(START, "model")
      .addEdge("model", END)
      .compile(checkpointer ? { checkpointer } : {}),
  );
}

/** A factory compiling {@link chatGraph} with the run's checkpointer, counting its calls. */
export function chatFactory(model: BaseChatModel): GraphFactory & { calls: number } {
  const factory = Object.assign(
    (ctx: Parameters<GraphFactory>[0]) => {
      factory.calls++;
      return chatGraph(model, ctx.checkpointer);
    },
    { calls: 0 },
  );
  return factory;
}

/** START → outer (a compiled subgraph: START → inner(model)) → END. */
export function nestedGraph(model: BaseChatModel, checkpointer?: BaseCheckpointSaver): StreamableGraph {
  const inner = new StateGraph(MessagesAnnotation)
    .addNode("inner", async (state, config) => {
      config.writer?.({ from: "inner" });
      return { messages: [await model.invoke(state.messages, config)] };
    })
    .addEdge(START, "inner")
    .compile();
  return asStreamable(
    new StateGraph(MessagesAnnotation)
      .addNode("outer", inner)
      .addEdge(START, "outer")
      .addEdge("outer", END)
      .compile(checkpointer ? { checkpointer } : {}),
  );
}

/** State of {@link approvalGraph}. */
export const ApprovalState = Annotation.Root({
  ...MessagesAnnotation.spec,
  decision: Annotation<string | null>({ reducer: (_a, b) => b, default: () => null }),
});

function approvalBuilder() {
  return new StateGraph(ApprovalState)
    .addNode("draft", async () => ({ messages: [new AIMessage({ content: "draft ready", id: "draft" })] }))
    .addNode("ask", async () => {
      const decision = interrupt({ question: "approve?" }) as string;
      return { decision };
    })
    .addNode("finish", async (state) => ({
      messages: [new AIMessage({ content: `decided: ${state.decision}`, id: "final" })],
    }))
    .addEdge(START, "draft")
    .addEdge("draft", "ask")
    .addEdge("ask", "finish")
    .addEdge("finish", END);
}

/** START → draft → ask (calls `interrupt()`) → finish → END. */
export function approvalGraph(checkpointer?: BaseCheckpointSaver): StreamableGraph {
  return asStreamable(approvalBuilder().compile(checkpointer ? { checkpointer } : {}));
}

/** START → child (the compiled {@link approvalGraph}) → END: the interrupt is raised inside a subgraph. */
export function nestedApprovalGraph(checkpointer?: BaseCheckpointSaver): StreamableGraph {
  return asStreamable(
    new StateGraph(ApprovalState)
      .addNode("child", approvalBuilder().compile())
      .addEdge(START, "child")
      .addEdge("child", END)
      .compile(checkpointer ? { checkpointer } : {}),
  );
}
