// What the first screen loads (issue #30): builds the app in memory and follows the entry chunk's
// static imports (what index.html loads and modulepreloads). Code that belongs to a later moment
// (a model chosen, a server connected, a view opened) must stay out of that set; the sizes are
// the UI bench's job (bench/ui-perf.ts prints them), this test keeps the structure.
import { resolve } from "node:path";
import { build, type Rollup } from "vite";
import { beforeAll, describe, expect, test } from "vitest";
import { initialChunksOf } from "./initial-chunks.ts";

const ROOT = resolve(import.meta.dirname, "..");

/** Module ids (by a part of their path) that load on demand, each with the moment it loads. */
const ON_DEMAND: { name: string; module: RegExp; loadsWhen: string }[] = [
  { name: "the WebLLM model loader", module: /src\/engine\/webllm\/model-loader\.ts$/, loadsWhen: "the first WebLLM model is chosen" },
  { name: "the WebLLM engine", module: /src\/engine\/webllm\/webllm-engine\.ts$/, loadsWhen: "the first WebLLM model is chosen" },
  { name: "the OpenAI-compatible engine", module: /src\/engine\/openai\/openai-engine\.ts$/, loadsWhen: "a server is first connected" },
  { name: "eventsource-parser", module: /node_modules\/eventsource-parser\//, loadsWhen: "a server is first connected" },
  { name: "Evaluate", module: /src\/ui\/eval\/EvaluateView\.tsx$/, loadsWhen: "Evaluate is opened" },
  { name: "the Evaluation store", module: /src\/store\/eval-store\.ts$/, loadsWhen: "Evaluate is opened" },
  { name: "the parser playground", module: /src\/ui\/playground\/Playground\.tsx$/, loadsWhen: "the parser playground is opened" },
  { name: "the re-parse panel", module: /src\/ui\/experiments\/ReparsePanel\.tsx$/, loadsWhen: "a step's re-parse is opened" },
  { name: "the re-run panel", module: /src\/ui\/experiments\/RerunPanel\.tsx$/, loadsWhen: "a step's re-run is opened" },
  { name: "the tool loop", module: /packages\/toolcall-middleware\/src\/loop\/run-tool-loop\.ts$/, loadsWhen: "the first turn is sent (or deep_research first runs)" },
  { name: "the branch runner", module: /src\/experiments\/branch-run\.ts$/, loadsWhen: "a step is first re-run, continued or discarded" },
  { name: "the debugger's step views", module: /src\/ui\/debugger\/DebuggerSteps\.tsx$/, loadsWhen: "the open conversation first has a loop step" },
  { name: "the debugger's step folding", module: /src\/ui\/debugger\/build-steps\.ts$/, loadsWhen: "the open conversation first has a loop step" },
  { name: "the step experiments", module: /src\/ui\/experiments\/StepExperiments\.tsx$/, loadsWhen: "the debugger first shows a step" },
  { name: "the empty debugger's tool definitions", module: /src\/ui\/debugger\/NextTurnToolDefinitions\.tsx$/, loadsWhen: "the empty debugger's tool list is opened" },
  { name: "native-vs-prompt comparison", module: /src\/ui\/model\/CompareRuns\.tsx$/, loadsWhen: "a server is ready" },
  { name: "the protocols (their registry and code)", module: /packages\/toolcall-middleware\/src\/protocols\/registry\.ts$/, loadsWhen: "the first turn is sent or a draft's prompt is first checked" },
  { name: "the prompt renderer", module: /packages\/toolcall-middleware\/src\/loop\/render-conversation\.ts$/, loadsWhen: "the first turn is sent or a draft's prompt is first checked" },
  { name: "export and transcripts", module: /src\/store\/conversation-export\.ts$/, loadsWhen: "a conversation is first exported, imported or made a transcript" },
  { name: "the streaming parser", module: /packages\/toolcall-middleware\/src\/parser\/call-scanner\.ts$/, loadsWhen: "the protocols load (the first turn)" },
  { name: "run_javascript's sandbox frame", module: /src\/tools\/javascript\/sandbox-frame\.ts$/, loadsWhen: "run_javascript first runs" },
  { name: "the shared-text codec", module: /src\/log-encoding\/shared-text\.ts$/, loadsWhen: "the conversation database opens (after the first paint)" },
  { name: "the calculator's expression reader", module: /src\/tools\/calculator\/expression\.ts$/, loadsWhen: "calculator first runs" },
  { name: "convert_units' unit table", module: /src\/tools\/units\/unit-table\.ts$/, loadsWhen: "convert_units first runs" },
  { name: "fetch_url's HTML reader", module: /src\/tools\/fetch-url\/readable-text\.ts$/, loadsWhen: "fetch_url first reads a page" },
  { name: "the MCP SDK", module: /node_modules\/@modelcontextprotocol\/sdk\//, loadsWhen: "the first MCP connect" },
  { name: "the model families' registry (their templates)", module: /packages\/toolcall-middleware\/src\/families\/registry\.ts$/, loadsWhen: "right after the first screen (the engine store asks for it), or a model is loaded or a server connected" },
  { name: "a family's template (GLM-4.5's)", module: /packages\/toolcall-middleware\/src\/families\/glm45\.ts$/, loadsWhen: "the families' registry loads" },
  { name: "the server templates' rendering", module: /packages\/toolcall-middleware\/src\/families\/server-templates\.ts$/, loadsWhen: "a server is first connected" },
  { name: "the GGUF family detection", module: /src\/gguf\/gguf-family\.ts$/, loadsWhen: "a GGUF file is first opened on the CPU engine" },
];

let chunks: Rollup.OutputChunk[] = [];

beforeAll(async () => {
  const result = await build({
    root: ROOT,
    logLevel: "silent",
    build: { write: false, emptyOutDir: false, outDir: resolve(ROOT, ".bench-cache", "initial-load-test") },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  chunks = outputs.flatMap((o) => o.output.filter((item): item is Rollup.OutputChunk => item.type === "chunk"));
}, 300_000);

/** The entry chunk and every chunk it imports statically, transitively. */
const initialChunks = () => initialChunksOf(chunks);

describe("the first screen's JavaScript", () => {
  test.each(ON_DEMAND)("leaves out $name (it loads when $loadsWhen)", ({ module }) => {
    // The module is in the build at all (a renamed file would make the check below vacuous)...
    expect(chunks.some((c) => c.moduleIds.some((id) => module.test(id)))).toBe(true);
    // ...but in no chunk the first screen loads.
    const inInitial = initialChunks().flatMap((c) => c.moduleIds.filter((id) => module.test(id)).map((id) => `${c.fileName}: ${id}`));
    expect(inInitial).toEqual([]);
  });
});
