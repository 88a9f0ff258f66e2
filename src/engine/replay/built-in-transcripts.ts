// Built-in transcripts: scripted model outputs for every protocol, including the malformed
// outputs small models really produce, so that the repair and error paths can be seen without
// a GPU. Tool names are the product's own tools.
import type { Transcript } from "./transcript.ts";

const hermesCall = (name: string, args: Record<string, unknown>) =>
  `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;

export const builtInTranscripts = {
  "hermes-calculator": {
    title: "Calculator (Hermes)",
    description: "One tool call in Hermes format, then a final answer built on the result.",
    suggestedMessage: "What is 1234 * 5678?",
    protocol: "hermes",
    turns: [
      `I'll work that out with the calculator.\n${hermesCall("calculator", { expression: "1234 * 5678" })}`,
      "1234 × 5678 = **7,006,652**.",
    ],
  },
  "hermes-parallel-calls": {
    title: "Two calls in one turn (Hermes)",
    description: "Two calls in one turn run concurrently; their results return in call order.",
    suggestedMessage: "What time is it in Seoul, and how many miles is 100 km?",
    protocol: "hermes",
    turns: [
      `${hermesCall("get_current_time", { timezone: "Asia/Seoul" })}\n${hermesCall("convert_units", { value: 100, from: "km", to: "mi" })}`,
      "It is the time shown above in Seoul, and 100 km is about 62.1 miles.",
    ],
  },
  "hermes-thinking": {
    title: "Thinking, then a call (Hermes, Qwen3 style)",
    description: "A <think> block is reasoning, not text; the call after it is parsed as usual.",
    suggestedMessage: "Please remember that my favourite colour is teal.",
    protocol: "hermes",
    turns: [
      `<think>\nThe user wants me to remember their favourite colour. I should use the remember tool.\n</think>\n\n${hermesCall("remember", { key: "favourite_colour", value: "teal" })}`,
      `${hermesCall("recall", { key: "favourite_colour" })}`,
      "<think>\nThe memory holds it.\n</think>\n\nGot it — your favourite colour, teal, is saved.",
    ],
  },
  "hermes-broken-json": {
    title: "Broken JSON that repair fixes (Hermes)",
    description: "Single quotes, an unquoted key, trailing commas and a number as a string: each repaired and shown as before → after.",
    suggestedMessage: "What is 72 °F in Celsius?",
    protocol: "hermes",
    turns: [
      `<tool_call>\n{'name': 'convert_units', arguments: {'value': '72', 'from': 'F', 'to': 'C',},}\n</tool_call>`,
      "72 °F is about 22.2 °C.",
    ],
  },
  "hermes-unknown-tool": {
    title: "A call to an unknown tool (Hermes)",
    description: "The model calls a tool that does not exist, is told so, and corrects itself.",
    suggestedMessage: "What's the weather in Seoul?",
    protocol: "hermes",
    turns: [
      hermesCall("get_weather", { location: "Seoul" }),
      `There is no weather tool, so I'll give you the local time instead.\n${hermesCall("get_current_time", { timezone: "Asia/Seoul" })}`,
      "I can't look up the weather, but I've shown the current time in Seoul above.",
    ],
  },
  "hermes-unclosed-tag": {
    title: "An unclosed <tool_call> (Hermes)",
    description: "The first call never closes and its JSON is cut short: a parse error the model sees; it retries properly.",
    suggestedMessage: "What is the square root of 2?",
    protocol: "hermes",
    turns: [
      `<tool_call>\n{"name": "calculator", "arguments": {"expression": "sqrt(2`,
      `Sorry, my last call was cut off.\n${hermesCall("calculator", { expression: "sqrt(2)" })}`,
      "√2 ≈ 1.41421356.",
    ],
  },
  "xml-convert-units": {
    title: "Unit conversion (XML)",
    description: "A call in the XML protocol: each child tag is a parameter, \"5\" coerced to a number.",
    suggestedMessage: "How many pounds is 5 kg?",
    protocol: "xml",
    turns: [
      "<tool_call>\n<tool_name>convert_units</tool_name>\n<value>5</value>\n<from>kg</from>\n<to>lb</to>\n</tool_call>",
      "5 kg is about 11.02 lb.",
    ],
  },
  "xml-tool-named-tag": {
    title: "The tool's own name as the tag (XML)",
    description: "The alternative XML style, <calculator><expression>…</expression></calculator>.",
    suggestedMessage: "What is (17 + 25) * 2?",
    protocol: "xml",
    turns: [
      "Let me compute it.\n<calculator>\n<expression>(17 + 25) * 2</expression>\n</calculator>",
      "(17 + 25) × 2 = 84.",
    ],
  },
  "xml-unclosed-tag": {
    title: "An unclosed tag and an unknown tool (XML)",
    description: "A call that never closes, then a call to a tool that does not exist, then a correct call.",
    suggestedMessage: "Summarise https://example.com/ for me.",
    protocol: "xml",
    turns: [
      "<tool_call>\n<tool_name>fetch_url</tool_name>\n<url>https://example.com/",
      "<tool_call>\n<tool_name>browse</tool_name>\n<url>https://example.com/</url>\n</tool_call>",
      "<tool_call>\n<tool_name>recall</tool_name>\n</tool_call>",
      "I could not fetch the page, and nothing relevant is stored in memory.",
    ],
  },
  "qwen3-coder-time": {
    title: "Current time (Qwen3-Coder)",
    description: "A call in Qwen3-Coder's <function=…><parameter=…> format.",
    suggestedMessage: "What time is it in Paris?",
    protocol: "qwen3-coder",
    turns: [
      "<tool_call>\n<function=get_current_time>\n<parameter=timezone>\nEurope/Paris\n</parameter>\n</function>\n</tool_call>",
      "That is the current time in Paris.",
    ],
  },
  "qwen3-coder-malformed": {
    title: "Malformed calls (Qwen3-Coder)",
    description: "A parameter that never closes, an unknown function, then a correct call.",
    suggestedMessage: "What is 2 to the power of 10?",
    protocol: "qwen3-coder",
    turns: [
      "<tool_call>\n<function=calculator>\n<parameter=expression>\n2 ** 10",
      "<tool_call>\n<function=python>\n<parameter=code>\nprint(2 ** 10)\n</parameter>\n</function>\n</tool_call>",
      "<tool_call>\n<function=calculator>\n<parameter=expression>\n2 ^ 10\n</parameter>\n</function>\n</tool_call>",
      "2¹⁰ = 1024.",
    ],
  },
  "javascript-endless-loop": {
    title: "An endless loop in run_javascript (Hermes)",
    description: "The code never ends: the tool times out (or is stopped) and the app stays responsive.",
    suggestedMessage: "Run this JavaScript: let n = 0; while (true) { n++; }",
    protocol: "hermes",
    turns: [
      hermesCall("run_javascript", { code: "let n = 0;\nwhile (true) { n++; }\nn;" }),
      "That code never finishes — `while (true)` has no exit, so it was stopped by the time limit.",
    ],
  },
  "deep-research": {
    title: "Deep research with a sub-agent (Hermes)",
    description:
      "deep_research starts a sub-agent on the same engine: turns 2–4 are the sub-agent's, turn 5 is the main agent's answer.",
    suggestedMessage: "Research how long light from the Sun takes to reach Earth.",
    protocol: "hermes",
    turns: [
      // Main agent: delegates.
      hermesCall("deep_research", {
        query: "How long does light from the Sun take to reach Earth?",
        deliverable_format: "markdown_brief",
      }),
      // Sub-agent, step 1: computes.
      `<think>\nDistance ≈ 149,597,870.7 km, speed of light 299,792.458 km/s.\n</think>\n\n${hermesCall("calculator", { expression: "149597870.7 / 299792.458" })}`,
      // Sub-agent, step 2: keeps a note.
      hermesCall("remember", { key: "sun_light_seconds", value: "499" }),
      // Sub-agent, step 3: its deliverable.
      "Light from the Sun takes about 499 seconds (8 min 19 s) to reach Earth. That is the mean distance of 1 au divided by the speed of light.",
      // Main agent: answers with the deliverable.
      "Sunlight takes about **8 minutes 19 seconds** (≈499 s) to reach Earth, on average.",
    ],
  },
} satisfies Record<string, Transcript>;

export type BuiltInTranscriptName = keyof typeof builtInTranscripts;

export const builtInTranscriptNames = Object.keys(builtInTranscripts) as BuiltInTranscriptName[];

export function isBuiltInTranscriptName(name: string): name is BuiltInTranscriptName {
  return Object.hasOwn(builtInTranscripts, name);
}
