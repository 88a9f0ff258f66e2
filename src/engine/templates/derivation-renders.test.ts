// Which probe renders of a derivation carry the probe tools: their declarations are most of a
// render's time, so only the calls' own probes (and the empty turn they are set against) carry
// them where the tools change nothing after the user's message; a template that writes the
// conversation otherwise without tools keeps them in every probe. What the derivations give is
// held by the tables of derived-protocols.test.ts and llama-cpp-test-chat.test.ts.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { deriveFormat } from "toolcall-middleware/derive/derive-format.ts";
import { boundedTemplateRenderer } from "./derived-from-template.ts";

const DIR = join(import.meta.dirname, "llama-cpp-templates");
/** A generous time bound: the machine is shared and a test never races the clock. */
const BUDGET = { milliseconds: 10_000, chars: 2_000_000, rangeItems: 100_000 };

interface ProbeRender {
  tools: boolean;
  calls: number;
  generationPrompt: boolean;
}

function probeRenders(file: string): { ok: boolean; renders: ProbeRender[] } {
  const render = boundedTemplateRenderer(readFileSync(join(DIR, file), "utf8"), file, BUDGET);
  const renders: ProbeRender[] = [];
  const derived = deriveFormat((variables) => {
    const messages = variables.messages as { tool_calls?: unknown[] }[];
    renders.push({ tools: "tools" in variables, calls: messages.at(-1)?.tool_calls?.length ?? 0, generationPrompt: variables.add_generation_prompt === true });
    return render(variables);
  });
  return { ok: derived.ok, renders };
}

describe("the probe renders that carry the tools", () => {
  it.each(["Kimi-K3.jinja", "GigaChat3-10B-A1.8B.jinja", "CohereForAI-c4ai-command-r-plus-tool_use.jinja", "Apertus-8B-Instruct.jinja"])(
    "%s: only the empty turn and the turns with one and two calls",
    (file) => {
      const { ok, renders } = probeRenders(file);
      expect(ok).toBe(true);
      expect(renders.filter((r) => r.tools).map((r) => r.calls)).toEqual([0, 1, 2]);
      expect(renders.some((r) => r.generationPrompt && !r.tools)).toBe(true);
    },
  );

  it("Functionary v3.1, which will not render without tools, keeps them in the reasoning's and the frame's probes", () => {
    const { ok, renders } = probeRenders("meetkai-functionary-medium-v3.1.jinja");
    expect(ok).toBe(true);
    expect(renders.filter((r) => r.generationPrompt).every((r) => r.tools)).toBe(true);
    expect(renders.filter((r) => r.tools && r.calls === 0).length).toBeGreaterThan(1);
  });
});
