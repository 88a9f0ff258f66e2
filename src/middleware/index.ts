// The middleware's public entry: everything an application needs to give a model without
// native tool calling tools — define tools, pick a protocol, run the loop, read its events.
//
//   import { defineTool, getProtocol, runToolLoop } from "./middleware/index.ts";
//   for await (const event of runToolLoop({ engine, protocol: getProtocol("hermes")!, tools, messages })) { … }

export type * from "./types.ts";
// The event log's schema (its types in types.ts are inferred from it): check a stored log with it.
export { loopEventSchema, chatMessageSchema, toolSpecSchema } from "./event-log-schema.ts";

// Tools. (The lint rule against importing "tools" paths guards the app's src/tools layer;
// this is the middleware's own tool definition module.)
// eslint-disable-next-line no-restricted-imports
export { defineTool, toolJsonSchema, ToolArgumentsError } from "./tools/define-tool.ts";
// eslint-disable-next-line no-restricted-imports
export * as formats from "./tools/formats/index.ts";
// eslint-disable-next-line no-restricted-imports
export { readToolDefinitions } from "./tools/formats/index.ts";

// Protocols and parsing.
export { getProtocol, listProtocols, registerProtocol } from "./protocols/registry.ts";
export { hermesProtocol } from "./protocols/hermes.ts";
export { xmlProtocol } from "./protocols/xml.ts";
export { qwen3CoderProtocol } from "./protocols/qwen3-coder.ts";
export { escapeToolResult } from "./protocols/escape-tool-result.ts";
export { collectParse, parseAll, parseChunks, type ParseResult } from "./parser/collect.ts";
export { parseJsonLenient, type Repair, type LenientJsonResult } from "./repair/json-repair.ts";
export { coerceArguments, type CoercionResult } from "./schema/coerce-arguments.ts";

// Templates.
export { chatmlTemplate } from "./templates/chatml.ts";

// The loop.
export { runToolLoop, DEFAULT_MAX_STEPS, DEFAULT_TOOL_TIMEOUT_MS, type RunToolLoopOptions, type LoopResult } from "./loop/run-tool-loop.ts";
export { renderConversation, DEFAULT_SYSTEM_PROMPT, type RenderConversationInput } from "./loop/render-conversation.ts";
export type { ArgumentsCheck } from "./loop/execute-tool-call.ts";
