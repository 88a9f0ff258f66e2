// The middleware's public entry: everything an application needs to give a model without
// native tool calling tools — define tools, pick a protocol, run the loop, read its events.
//
//   import { defineTool, getProtocol, runToolLoop } from "toolcall-middleware";
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
// The built-in protocols are found by name (getProtocol("hermes")); each is one folder under
// protocols/ and one line in protocols/registry.ts.
export { getProtocol, listProtocols, registerProtocol, allReservedMarkers } from "./protocols/registry.ts";
export { escapeToolResult, escapeAllTags, toolResultEscaper, exactMarkerEscaper } from "./protocols/escape-tool-result.ts";
export { escapeToolSpecs, promptEscaper, renderToolSection } from "./protocols/escape-tool-definitions.ts";
export { modelTextEscaper, modelTextMarkers } from "./loop/model-text-markers.ts";

// What a protocol of your own is built from (one module, then registerProtocol): the streaming
// core takes a CallSyntax; body readers, the markerless fallback, escaping and structural tags.
export { ToolCallScanner } from "./parser/scanner.ts";
export type { CallSyntax, CallMarker, BodyReader, BareCallSyntax, BareCallTracker } from "./parser/call-syntax.ts";
export type { BodyReading, CallCandidate, CandidateOutcome } from "./parser/call-candidate.ts";
export { readCallBody, readBodyAs, bodyForms, nameInBodyAs, type BodyForm } from "./parser/call-body.ts";
export { readJsonCallBody, readCallObject } from "./parser/json-call.ts";
export { readMarkupCallBody } from "./parser/markup-call.ts";
export { readPythonicCalls } from "./parser/pythonic-calls.ts";
export { bareJsonCall } from "./parser/bare-json-call.ts";
export { encodeEntities } from "./parser/markup.ts";
export { protectJson, protectPythonString, encodeMarkerEscapes } from "./protocols/protect-markers.ts";
export { renderToolResponse, joinAssistantTurn } from "./protocols/tool-response.ts";
// A protocol derived from a chat template: the caller renders the template (bounded), the middleware reads the format off the renderings.
export { deriveFormat, type DerivedFormat, type DerivedCallShape, type Derivation } from "./derive/derive-format.ts";
export { derivedProtocol as protocolFromDerivedFormat, type DerivedProtocolOptions } from "./derive/derived-protocol.ts";
export { describeDerivedFormat } from "./derive/describe-format.ts";
export type { TemplateRenderer } from "./derive/probes.ts";
export { callStructuralTag, jsonCallStructuralTag } from "./protocols/structural-tags.ts";
export { structuralTagProblems } from "./protocols/structural-tag-shape.ts";
export { collectParse, parseAll, parseChunks, type ParseResult } from "./parser/collect.ts";
export { parseJsonLenient, type Repair, type LenientJsonResult } from "./repair/json-repair.ts";
export { coerceArguments, type CoercionResult } from "./schema/coerce-arguments.ts";

// Templates.
export { chatmlTemplate } from "./templates/chatml.ts";
export { RenderPending, settleRender } from "./templates/render-pending.ts";

// The loop.
export { runToolLoop, DEFAULT_MAX_STEPS, DEFAULT_TOOL_TIMEOUT_MS, DEFAULT_MAX_CALLS_PER_STEP, type RunToolLoopOptions, type LoopResult } from "./loop/run-tool-loop.ts";
export { STEP_OUTPUT_LIMITS, type StepOutputLimits } from "./loop/stream-step.ts";
// renderPrompt: the exact prompt of a step (what the loop sends), for showing or checking it.
export { renderConversation, renderPrompt, DEFAULT_SYSTEM_PROMPT, type RenderConversationInput } from "./loop/render-conversation.ts";
export type { ArgumentsCheck } from "./loop/execute-tool-call.ts";

// Model families: each family's chat template (equal to its official Jinja template, tools
// included), control tokens, trained protocol and sampling defaults, found by a WebLLM model id
// or a server's model name. renderModelPrompt is the prompt the loop sends such a model.
export {
  families,
  familyById,
  familyOfModel,
  familyOfServerModel,
  familyOfWebLlmModel,
  familyChatTemplate,
  recommendedProtocol,
  samplingDefaultsFor,
  webllmModelRecords,
  webllmRecordOf,
  type ProtocolRecommendation,
} from "./families/registry.ts";
export type { ModelFamily, KvStateKind, WebLlmModelRecord, WebLlmModels } from "./families/types.ts";
export type { SamplingDefaults } from "./families/sampling.ts";
export { renderModelPrompt, templateForModel, UnknownModelTemplateError, type ModelPromptInput, type ModelPrompt } from "./families/model-prompt.ts";
