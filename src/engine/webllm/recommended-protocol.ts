// Which tool-call protocol suits each model family: the format the family was trained on where
// it has one, else the xml protocol (tags small models copy more reliably than JSON escapes).
// Shown in the model picker and preselected when a model is chosen; the person can still pick
// another protocol for any turn.

export interface ProtocolRecommendation {
  protocol: string;
  why: string;
}

const BY_FAMILY: Array<[RegExp, ProtocolRecommendation]> = [
  [/^qwen3-/i, { protocol: "hermes", why: "Qwen3 was trained on Hermes-style <tool_call> JSON" }],
  [/^qwen2(?:\.5)?-/i, { protocol: "hermes", why: "Qwen2.5 was trained on Hermes-style <tool_call> JSON" }],
  [/^hermes-/i, { protocol: "hermes", why: "Hermes models define the <tool_call> format" }],
  [/^llama-3\.[12]-/i, { protocol: "llama3-json", why: "Llama 3.1/3.2 were trained on Meta's JSON tool calls" }],
];

const FALLBACK: ProtocolRecommendation = { protocol: "xml", why: "no trained tool format; tags are the easiest to follow" };

export function recommendedProtocol(modelId: string): ProtocolRecommendation {
  return BY_FAMILY.find(([pattern]) => pattern.test(modelId))?.[1] ?? FALLBACK;
}
