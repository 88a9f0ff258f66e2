// The input of `npm run render-prompt`: a model (a WebLLM id from the list or a server model
// name, resolved to its family), a protocol (default: the one the family was trained on), the
// thinking switch (default: the template's own), OpenAI-style tool definitions, the middleware's
// ChatMessage objects and a system prompt (none when absent). Read and checked here, with messages
// that say which field is wrong.
import { z } from "zod";
import { chatMessageSchema } from "toolcall-middleware/event-log-schema.ts";
import { structuralTagFor } from "toolcall-middleware/loop/step-constraint.ts";
import { listProtocols, getProtocol } from "toolcall-middleware/protocols/registry.ts";
import { readToolDefinitions } from "toolcall-middleware/tools/formats/index.ts";
import type { ChatMessage, ToolChoiceSetting, ToolSpec } from "toolcall-middleware/types.ts";
import { families, familyOfModel, recommendedProtocolOf, MAX_MODEL_ID_CHARS } from "toolcall-middleware/families/registry.ts";
import { prebuiltModelRecords } from "../webllm/prebuilt-models.ts";
import { renderModelPrompt, type ModelPromptInput } from "toolcall-middleware/families/model-prompt.ts";

const promptRequestSchema = z.strictObject({
  model: z.string().min(1),
  /** Absent: the protocol the model's family was trained on (or the lab's recommendation for it). */
  protocol: z.string().min(1).optional(),
  thinking: z.boolean().optional(),
  tools: z.array(z.unknown()).optional(),
  messages: z.array(chatMessageSchema),
  /** The conversation's system prompt; absent means no system message (what the official template writes then). */
  systemPrompt: z.string().optional(),
  /** "Constrain tool calls": also print the structural tag the step sends. */
  constrained: z.boolean().optional(),
  /** With constrained: "auto" (default), "required", "none" or {"name": tool}. */
  toolChoice: z.union([z.enum(["auto", "required", "none"]), z.strictObject({ name: z.string().min(1) })]).optional(),
});

/** What renderModelPrompt takes, plus the constraint the command may print. */
export interface PromptRequest extends ModelPromptInput {
  /** Set when the step is constrained: the tool choice its structural tag is made for. */
  constrained?: { toolChoice: ToolChoiceSetting };
}

export class PromptRequestError extends Error {
  override name = "PromptRequestError";
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(input)"}: ${issue.message}`).join("\n");
}

export function readPromptRequest(input: unknown): PromptRequest {
  const parsed = promptRequestSchema.safeParse(input);
  if (!parsed.success) throw new PromptRequestError(`invalid input:\n${describeIssues(parsed.error)}`);
  const { model, protocol: protocolName, thinking, tools, messages, systemPrompt, constrained, toolChoice } = parsed.data;
  if (toolChoice !== undefined && !constrained) throw new PromptRequestError('toolChoice: only used with "constrained": true');
  if (model.length > MAX_MODEL_ID_CHARS) throw new PromptRequestError(`model: ${model.length.toLocaleString("en-US")} characters, over the ${MAX_MODEL_ID_CHARS} a model id may have ("${model.slice(0, 40)}…")`);
  const family = familyOfModel(model);
  if (!family) {
    throw new PromptRequestError(
      `model "${model}" belongs to no model family the lab knows: give a WebLLM id from the lab's list or a server model name of a known family (${families.map((f) => f.label).join(", ")}); WebLLM ids:\n${prebuiltModelRecords.map((r) => `  ${r.model_id}`).join("\n")}`,
    );
  }
  const protocol = getProtocol(protocolName ?? recommendedProtocolOf(family).protocol);
  if (!protocol) throw new PromptRequestError(`protocol "${protocolName}" is not registered; one of: ${listProtocols().map((p) => p.name).join(", ")}`);
  let toolSpecs: ToolSpec[];
  try {
    toolSpecs = tools ? readToolDefinitions(tools) : [];
  } catch (error) {
    throw new PromptRequestError(`tools: ${error instanceof Error ? error.message : String(error)}`);
  }
  return {
    modelId: model,
    protocol,
    tools: toolSpecs,
    messages: messages as ChatMessage[],
    ...(thinking !== undefined ? { thinking } : {}),
    systemPrompt: systemPrompt ?? "",
    ...(constrained ? { constrained: { toolChoice: toolChoice ?? "auto" } } : {}),
  };
}

/**
 * The command's whole output for a request: the prompt text. Further sections (a structural tag
 * for constrained output, say) follow it, each under a `--- name ---` line.
 */
export function renderPromptRequest(input: unknown): string {
  const request = readPromptRequest(input);
  const { prompt } = renderModelPrompt(request);
  if (!request.constrained) return prompt;
  const tag = structuralTagFor(request.constrained.toolChoice, request.protocol, request.tools);
  if ("unsupported" in tag) throw new PromptRequestError(`constrained: no structural tag: ${tag.unsupported}`);
  // The separator line starts after a newline of its own, so the prompt before it is exact.
  return `${prompt}\n${STRUCTURAL_TAG_SEPARATOR}\n${JSON.stringify(tag.structuralTag, null, 2)}`;
}

export const STRUCTURAL_TAG_SEPARATOR = "--- structural_tag ---";
