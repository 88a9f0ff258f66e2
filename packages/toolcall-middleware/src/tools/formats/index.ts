// Tool definitions, calls and results in the OpenAI, Anthropic and Gemini shapes, to and from
// ours; and one reader that accepts a definition in any of them.
import type { ToolSpec } from "../../types.ts";
import { fromAnthropicTool } from "./anthropic.ts";
import { fromGeminiFunctionDeclaration, fromGeminiTool } from "./gemini.ts";
import { fromOpenAITool } from "./openai.ts";
import { nestedDeeperThan } from "../../parser/settle-call.ts";
import { ToolFormatError, describe, isRecord, requireString, schemaOrEmpty } from "./shared.ts";

export * from "./openai.ts";
export * from "./anthropic.ts";
export * from "./gemini.ts";
export { toGeminiSchema, fromGeminiSchema, type GeminiSchema, type GeminiType } from "./gemini-schema.ts";
export { ToolFormatError, type ToolResultMessage } from "./shared.ts";

/**
 * Tool definitions nested deeper than this are refused where they enter: rendering, cloning to a
 * worker, storing and serialising walk a schema recursively, and overflow the stack on one nested
 * 20,000 deep. (A real schema nests a few levels; each object level is two here.)
 */
export const MAX_TOOL_DEFINITION_DEPTH = 64;

/**
 * Tool definitions pasted or loaded in any shape we know: ours ({name, description,
 * parameters}), OpenAI ({type: "function", function}), Anthropic ({name, input_schema}),
 * a Gemini declaration (upper-case types) or a Gemini tool ({functionDeclarations}), one or a
 * list. Throws a ToolFormatError naming the entry that is none of these, or saying they nest
 * deeper than MAX_TOOL_DEFINITION_DEPTH.
 */
export function readToolDefinitions(input: unknown): ToolSpec[] {
  if (nestedDeeperThan(input, MAX_TOOL_DEFINITION_DEPTH)) throw new ToolFormatError(`the tool definitions are nested more than ${MAX_TOOL_DEFINITION_DEPTH} levels deep`);
  const entries = Array.isArray(input) ? input : [input];
  return entries.flatMap((entry, index) => {
    const where = Array.isArray(input) ? `tool definition [${index}]` : "tool definition";
    if (!isRecord(entry)) throw new ToolFormatError(`${where} must be an object, got ${describe(entry)}`);
    if (isRecord(entry.function)) return [fromOpenAITool(entry)];
    if ("functionDeclarations" in entry || "function_declarations" in entry) return fromGeminiTool(entry);
    if ("input_schema" in entry) return [fromAnthropicTool(entry)];
    if (typeof entry.name === "string") {
      if (isRecord(entry.parameters) && usesGeminiTypes(entry.parameters)) return [fromGeminiFunctionDeclaration(entry)];
      return [
        {
          name: requireString(entry, "name", where),
          description: typeof entry.description === "string" ? entry.description : "",
          parameters: schemaOrEmpty(entry.parameters, `${where}.parameters`),
        },
      ];
    }
    throw new ToolFormatError(`${where} is not an OpenAI, Anthropic, Gemini or plain {name, description, parameters} definition`);
  });
}

function usesGeminiTypes(schema: Record<string, unknown>): boolean {
  return typeof schema.type === "string" && schema.type !== schema.type.toLowerCase();
}
