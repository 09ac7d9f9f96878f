/**
 * The demo model's decisions, as pure functions of the conversation and the
 * bound tools: a fixed plan of tool-call steps per user message, executed one
 * step per model call, then a closing answer that summarises the tool results.
 */
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { fitArgs, type BoundTool } from "./bound-tools.js";
import { readIntents } from "./intents.js";
import { contentText, oneLine } from "./message-text.js";
import { matchSkill, parsePromptSkills } from "./skill-match.js";

/** A tool call the demo intends to make (id assigned by the model). */
export interface PlannedCall {
  readonly name: string;
  readonly args: Record<string, unknown>;
}

/** One model response: a short narration and its tool calls (none for the final answer). */
export interface DemoTurn {
  readonly text: string;
  readonly calls: readonly PlannedCall[];
}

/** Every answer of the demo model starts with this label. */
export const DEMO_LABEL = "[DeerFlow demo model: offline and deterministic, not a real LLM]";

const OUTPUTS = "/mnt/user-data/outputs";

interface Step {
  readonly text: string;
  readonly calls: readonly PlannedCall[];
}

/** Index of the last human message, or -1. */
function lastHumanIndex(messages: readonly BaseMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (HumanMessage.isInstance(messages[i])) return i;
  return -1;
}

function reportContent(request: string): string {
  return [
    `# Demo report`,
    ``,
    `Written by the DeerFlow demo model for the request:`,
    ``,
    `> ${oneLine(request, 200)}`,
    ``,
    `Configure a real model in config.yaml to get real content.`,
    ``,
  ].join("\n");
}

/**
 * The plan for one user message: each step is one model response.
 *
 * @param request - the user's message
 * @param systemPrompt - system message text (for `<available_skills>`)
 * @param tools - bound tools by name
 * @returns the steps, in order (only calls whose tool is bound and whose arguments fit)
 */
function planSteps(request: string, systemPrompt: string, tools: ReadonlyMap<string, BoundTool>): Step[] {
  const call = (
    name: string,
    args: Record<string, unknown>,
    prefs: Record<string, string> = {},
  ): PlannedCall | undefined => {
    const tool = tools.get(name);
    const fitted = tool === undefined ? undefined : fitArgs(tool, args, prefs);
    return fitted === undefined ? undefined : { name, args: fitted };
  };
  const steps: Step[] = [];
  const push = (text: string, ...calls: (PlannedCall | undefined)[]): void => {
    const ok = calls.filter((c): c is PlannedCall => c !== undefined);
    if (ok.length > 0) steps.push({ text, calls: ok });
  };
  const intents = readIntents(request);

  if (intents.ambiguous) {
    push(
      "I need a bit more detail before I start.",
      call(
        "ask_clarification",
        {
          question: `Your message "${oneLine(request, 60)}" is too short for me to act on. What would you like me to do?`,
          clarification_type: "ambiguous_requirement",
          context:
            "The demo model asks for clarification when a request is only a few words ending with a question mark.",
          options: [
            "List the files in my workspace",
            "Run a shell command",
            "Write a report to the outputs folder",
            "Research two topics in parallel",
          ],
        },
        { clarification_type: "ambiguous_requirement" },
      ),
    );
    return steps;
  }

  const skill = matchSkill(request, parsePromptSkills(systemPrompt));
  if (skill !== undefined)
    push(
      `The "${skill.name}" skill matches this request, so I will read it first.`,
      call("read_file", { description: `Load the ${skill.name} skill`, path: skill.location }),
    );
  if (intents.list !== undefined)
    push(`Let me list ${intents.list}.`, call("ls", { description: "List the folder", path: intents.list }));
  if (intents.read !== undefined)
    push(`Let me read ${intents.read}.`, call("read_file", { description: "Read the file", path: intents.read }));
  if (intents.run !== undefined)
    push(
      `Let me run \`${intents.run}\` in the sandbox.`,
      call("bash", { description: "Run the requested command", command: intents.run }),
    );
  if (intents.write !== undefined) {
    const target = `${OUTPUTS}/${intents.write}`;
    push(
      `I will write ${target}.`,
      call("write_file", { description: "Write the deliverable", path: target, content: reportContent(request) }),
    );
    push("Now I will present the file.", call("present_files", { filepaths: [target] }));
  }
  if (intents.delegate !== undefined) {
    const calls = intents.delegate.map((topic) =>
      call(
        "task",
        {
          description: oneLine(`Research ${topic}`, 40),
          prompt: `Research "${topic}" and report the key findings in two sentences.`,
          subagent_type: "general-purpose",
        },
        { subagent_type: "general-purpose" },
      ),
    );
    push(
      intents.delegate.length > 1
        ? `I will delegate ${intents.delegate.length} research tasks in parallel.`
        : "I will delegate this to a subagent.",
      ...calls,
    );
  }
  return steps;
}

function summarise(m: ToolMessage, callArgs: ReadonlyMap<string, Record<string, unknown>>): string {
  const text = contentText(m.content);
  const args = callArgs.get(m.tool_call_id) ?? {};
  const failed = m.status === "error" || text.startsWith("Error");
  if (failed) return `${m.name ?? "tool"} failed: ${oneLine(text)}`;
  switch (m.name) {
    case "read_file": {
      const p = String(args["path"] ?? "");
      const lines = text.split("\n").length;
      return p.endsWith("/SKILL.md")
        ? `Loaded the skill at ${p} (${lines} lines) and followed its workflow.`
        : `Read ${p} (${lines} lines).`;
    }
    case "ls": {
      const entries = text.split("\n").filter((l) => l.trim() !== "" && l !== "(empty)");
      return `Listed ${String(args["path"] ?? "")}: ${entries.length === 0 ? "it is empty" : `${entries.length} entr${entries.length === 1 ? "y" : "ies"} (${entries.slice(0, 5).join(", ")}${entries.length > 5 ? ", …" : ""})`}.`;
    }
    case "bash":
      return `Ran \`${String(args["command"] ?? "")}\`: ${oneLine(text) || "(no output)"}`;
    case "write_file":
      return `Wrote ${String(args["path"] ?? "")}.`;
    case "present_files":
      return `Presented ${((args["filepaths"] as string[] | undefined) ?? []).join(", ")} to you.`;
    case "task":
      return `A subagent reported on "${String(args["description"] ?? "")}": ${oneLine(text, 200)}`;
    case "ask_clarification":
      return `You clarified: ${oneLine(text, 200)}`;
    default:
      return `${m.name ?? "tool"}: ${oneLine(text)}`;
  }
}

/**
 * The closing answer: what each tool returned, or a description of the demo when no tool ran.
 *
 * @param request - the user's message
 * @param since - messages after the user's message
 * @returns the answer text
 */
function finalAnswer(request: string, since: readonly BaseMessage[]): string {
  const callArgs = new Map<string, Record<string, unknown>>();
  for (const m of since)
    if (AIMessage.isInstance(m)) for (const c of m.tool_calls ?? []) if (c.id !== undefined) callArgs.set(c.id, c.args);
  const results = since.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
  if (results.length === 0) {
    const topic = /^Research "(.+)" and report/.exec(request)?.[1];
    if (topic !== undefined) {
      return `${DEMO_LABEL} Findings on "${topic}": this is a canned subagent result. A real model would research "${topic}" here and report what it found.`;
    }
    return [
      `${DEMO_LABEL} You said: "${oneLine(request, 200)}".`,
      "I am a stand-in that needs no API key: I follow fixed rules instead of thinking. Configure a real model under `models:` in config.yaml for genuine answers.",
      "Things I can show: `list my workspace`, `run `echo hi``, `write a report`, `research A and B in parallel`, or just `?`.",
    ].join("\n\n");
  }
  return [
    `${DEMO_LABEL} Here is what I did for "${oneLine(request, 80)}":`,
    ...results.map((m) => `- ${summarise(m, callArgs)}`),
    "",
    "Configure a real model in config.yaml for genuine answers.",
  ].join("\n");
}

/**
 * Decides the next response for a conversation.
 *
 * @param messages - the messages sent to the model (system prompt first, if any)
 * @param tools - bound tools by name
 * @returns narration and tool calls for the next step, or the final answer (no calls)
 */
export function planDemoTurn(messages: readonly BaseMessage[], tools: ReadonlyMap<string, BoundTool>): DemoTurn {
  const systemPrompt = messages
    .filter((m) => SystemMessage.isInstance(m))
    .map((m) => contentText(m.content))
    .join("\n");
  const humanAt = lastHumanIndex(messages);
  const request = humanAt < 0 ? "" : contentText((messages[humanAt] as BaseMessage).content);
  const since = humanAt < 0 ? [] : messages.slice(humanAt + 1);
  // An answered clarification replaces the request: plan again from the user's answer.
  let effective = request;
  let planFrom = 0;
  since.forEach((m, i) => {
    if (ToolMessage.isInstance(m) && m.name === "ask_clarification" && m.status !== "error") {
      effective = contentText(m.content).replace(/^User's answer:\s*/, "");
      planFrom = i + 1;
    }
  });
  const stepsTaken = since
    .slice(planFrom)
    .filter((m) => AIMessage.isInstance(m) && (m.tool_calls?.length ?? 0) > 0).length;
  const next = planSteps(effective, systemPrompt, tools)[stepsTaken];
  if (next !== undefined) return { text: next.text, calls: next.calls };
  return { text: finalAnswer(request, since), calls: [] };
}
