// Outputs a model (or a prompt injection through it) can write to make a parser work hard:
// deep nesting and long repetition of every protocol's markers. Shared by the fuzz test and the
// nesting benchmark. `n` is the depth or the number of repetitions.
export function hostileShapes(n: number): Record<string, string> {
  const deep = (open: string, inner: string, close: string) => open.repeat(n) + inner + close.repeat(n);
  return {
    "markup nested in a parameter": `<tool_call><tool_name>calculator</tool_name><expression>1+1</expression><note>${deep("<a>", "x", "</a>")}</note></tool_call>`,
    "tool tag sharing its parameter's name": deep("<s>", "10", "</s>"),
    "JSON nested in arguments": `<tool_call>{"name": "calculator", "arguments": {"expression": "1", "n": ${deep("[", "1", "]")}}}</tool_call>`,
    "objects nested in arguments": `<tool_call>{"name": "calculator", "arguments": {"expression": "1", "o": ${deep('{"a": ', "1", "}")}}}</tool_call>`,
    "JSON left open": `<tool_call>{"name": "calculator", "arguments": ${'{"a":'.repeat(n)}`,
    "bare JSON nested": `{"name": "calculator", "arguments": ${deep('{"a": ', "1", "}")}}`,
    "repeated call openers": "<tool_call>".repeat(n),
    "repeated think blocks": deep("<think>", "x", "</think>"),
    // Reasoning tags inside a call's string: the call owns them, each one is a piece handed on.
    "think tags in a call's string": `<think><tool_call>{"name": "calculator", "arguments": {"expression": "${"</think><think>".repeat(n)}"}}</tool_call></think>`,
    // Held back whole as a possible bare call, then not one: given back and split again, once.
    "bare call given back with think tags": `{"name": "calculator", "arguments": {"expression": "${"<think>x</think>".repeat(n)}"}} and more`,
    "repeated parameters": `<function=calculator>${"<parameter=expression>".repeat(n)}x</function>`,
    "attribute quotes left open": `<tool_call><tool_name>calculator</tool_name>${'<a x="'.repeat(n)}</tool_call>`,
    "pythonic nested": `[calculator(expression=${deep("[", "1", "]")})]`,
    "pythonic repeated calls": `[${"calculator(expression='1'), ".repeat(n)}]`,
    "python tags repeated": "<|python_tag|>".repeat(n) + "<|python_start|>".repeat(n),
    "mistral markers repeated": "[TOOL_CALLS]".repeat(n) + `[TOOL_CALLS]calculator[ARGS]${deep("[", "", "]")}`,
    "llama function repeated": "<function=calculator>".repeat(n) + "</function>".repeat(n),
    "deepseek markers repeated": "<｜tool▁calls▁begin｜>" + "<｜tool▁call▁begin｜>function<｜tool▁sep｜>calculator\n```json\n".repeat(n),
    "lone angle brackets": "<".repeat(n),
  };
}
