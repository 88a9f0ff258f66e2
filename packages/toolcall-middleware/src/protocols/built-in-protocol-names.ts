// The built-in protocols' names and labels, in registry order, without their code: what the lab's
// first screen (the header's protocol switch, a family's recommended protocol) needs before the
// protocols themselves load. registry.ts stays the only list of protocols; this is its light copy,
// and built-in-protocol-names.test.ts fails when the two differ.
export interface ProtocolName {
  name: string;
  label: string;
}

export const builtInProtocolNames: readonly ProtocolName[] = [
  { name: "hermes", label: "Hermes (JSON in <tool_call>)" },
  { name: "xml", label: "XML (one tag per argument)" },
  { name: "qwen3-coder", label: "Qwen3-Coder (<function=…> with <parameter=…>)" },
  { name: "llama3-json", label: "Llama 3 JSON (<|python_tag|>{…})" },
  { name: "llama3-function", label: "Llama 3 <function=…>{…}</function>" },
  { name: "pythonic", label: "Pythonic ([f(a=1), g(b='x')])" },
  { name: "mistral", label: "Mistral ([TOOL_CALLS][…])" },
  { name: "deepseek-v3", label: "DeepSeek V3 (<｜tool▁calls▁begin｜>)" },
  { name: "phi4-mini", label: "Phi-4-mini (functools[…])" },
  { name: "lfm2", label: "LFM2 (<|tool_call_start|>[f(a=1)])" },
  { name: "gemma4", label: "Gemma 4 (<|tool_call>call:f{a:<|\"|>x<|\"|>})" },
  { name: "functiongemma", label: "FunctionGemma (<start_function_call>call:f{a:<escape>x<escape>})" },
  { name: "harmony", label: "Harmony (gpt-oss: to=functions.NAME)" },
  { name: "kimi-k2", label: "Kimi K2 (<|tool_calls_section_begin|>)" },
  { name: "minimax-m2", label: "MiniMax M2 (<minimax:tool_call><invoke>)" },
  { name: "xlam", label: "xLAM ([{\"name\", \"arguments\"}])" },
  { name: "glm45", label: "GLM-4.5 (<tool_call>NAME<arg_key>…)" },
  { name: "deepseek-v32", label: "DeepSeek V3.2 (<｜DSML｜function_calls>)" },
];

/** Whether a protocol of this name is built in (registered or not yet loaded). */
export function isBuiltInProtocol(name: string): boolean {
  return builtInProtocolNames.some((protocol) => protocol.name === name);
}
