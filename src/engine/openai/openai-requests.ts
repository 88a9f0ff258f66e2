// The request bodies the lab sends to an OpenAI-compatible server: a raw completion of the exact
// prompt we rendered (prompt mode), or a chat completion with tools (native mode). Every sampling
// setting the step records is sent, so the server samples as the debugger says.
import { toOpenAITool, toOpenAIToolCall } from "../../middleware/tools/formats/openai.ts";
import type { ChatMessage, GenerationSettings, NativeChatInput } from "../../middleware/types.ts";

export const DEFAULT_NATIVE_SYSTEM_PROMPT = "You are a helpful assistant.";

function sampling(settings: GenerationSettings): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (settings.maxTokens !== undefined) body.max_tokens = settings.maxTokens;
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  if (settings.topP !== undefined) body.top_p = settings.topP;
  if (settings.presencePenalty !== undefined) body.presence_penalty = settings.presencePenalty;
  if (settings.frequencyPenalty !== undefined) body.frequency_penalty = settings.frequencyPenalty;
  // Not in OpenAI's API; vLLM, SGLang and llama.cpp read it, others ignore it.
  if (settings.repetitionPenalty !== undefined) body.repetition_penalty = settings.repetitionPenalty;
  if (settings.seed !== undefined) body.seed = settings.seed;
  const stop = settings.stop?.filter(Boolean);
  if (stop?.length) body.stop = stop;
  return body;
}

export function completionsBody(model: string, prompt: string, settings: GenerationSettings): Record<string, unknown> {
  return { model, prompt, stream: true, stream_options: { include_usage: true }, ...sampling(settings) };
}

export function chatBody(model: string, input: NativeChatInput, settings: GenerationSettings): Record<string, unknown> {
  const messages = [{ role: "system", content: input.systemPrompt || DEFAULT_NATIVE_SYSTEM_PROMPT }, ...input.messages.filter((m) => m.role !== "system").map(toChatMessage)];
  return {
    model,
    messages,
    ...(input.tools.length > 0 ? { tools: input.tools.map(toOpenAITool), tool_choice: "auto" } : {}),
    stream: true,
    stream_options: { include_usage: true },
    ...sampling(settings),
  };
}

/** One message of ours as the chat completions API takes it. */
export function toChatMessage(message: ChatMessage): Record<string, unknown> {
  switch (message.role) {
    case "system":
    case "user":
      return { role: message.role, content: message.content };
    case "assistant":
      return message.toolCalls?.length
        ? { role: "assistant", content: message.content === "" ? null : message.content, tool_calls: message.toolCalls.map(toOpenAIToolCall) }
        : { role: "assistant", content: message.content };
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
  }
}
