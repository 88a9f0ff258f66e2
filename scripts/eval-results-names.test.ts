// The committed results files (eval-results/) are named in one pattern,
//   <model id>.<protocols>.constrained-<off | on | off+on>.json
// (protocols: one name, or several joined by "+" in alphabetical order), and each name says what
// its file holds: the model the run names, the protocols and the constraint of its cases. A
// reader (docs/real-model-evals.md, `npm run eval-report`, bench/eval-ceiling.ts) can then pick
// files by name without opening them.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { builtInProtocolNames } from "toolcall-middleware/protocols/built-in-protocol-names.ts";

const ROOT = resolve(import.meta.dirname, "..");
const RESULTS_DIR = join(ROOT, "eval-results");
const NAME = /^(?<model>[a-z0-9_-]+)\.(?<protocols>[a-z0-9-]+(?:\+[a-z0-9-]+)*)\.constrained-(?<constraint>off|on|off\+on)\.json$/;

interface ResultsFileName {
  model: string;
  protocols: string[];
  constrained: boolean[];
}

/** What a results file's name says it holds, or undefined where the name is not in the pattern. */
function readResultsFileName(name: string): ResultsFileName | undefined {
  const groups = NAME.exec(name)?.groups;
  if (!groups) return undefined;
  const constrained = { off: [false], on: [true], "off+on": [false, true] }[groups.constraint!]!;
  return { model: groups.model!, protocols: groups.protocols!.split("+"), constrained };
}

const modelIds = (JSON.parse(readFileSync(join(ROOT, "models/models.json"), "utf8")) as { models: { id: string }[] }).models.map((m) => m.id);
const protocolNames = new Set(builtInProtocolNames.map((p) => p.name));

describe("the names of eval-results/", () => {
  it("reads the pattern, and nothing else", () => {
    expect(readResultsFileName("smollm2-135m-instruct-q4_1.hermes+xml.constrained-off+on.json")).toEqual({ model: "smollm2-135m-instruct-q4_1", protocols: ["hermes", "xml"], constrained: [false, true] });
    expect(readResultsFileName("gemma-3-270m-q4_k_m.pythonic.constrained-on.json")).toEqual({ model: "gemma-3-270m-q4_k_m", protocols: ["pythonic"], constrained: [true] });
    // The names before the pattern: no protocol, or no constraint.
    expect(readResultsFileName("smollm2-135m-instruct-q4_1.constrained-off.json")).toBeUndefined();
    expect(readResultsFileName("smollm2-135m-instruct-q4_1.llama3-json.json")).toBeUndefined();
  });

  const files = readdirSync(RESULTS_DIR).filter((name) => !name.startsWith("."));

  it("holds results files", () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it.each(files)("%s says what it holds: its model, protocols and constraint", (name) => {
    const named = readResultsFileName(name);
    expect(named, `${name} is not <model id>.<protocols>.constrained-<off|on|off+on>.json`).toBeDefined();
    const { model, protocols, constrained } = named!;
    expect(modelIds).toContain(model);
    for (const protocol of protocols) expect(protocolNames.has(protocol), `${protocol} is no protocol`).toBe(true);
    expect(protocols, "protocols in alphabetical order").toEqual([...protocols].sort());
    const file = JSON.parse(readFileSync(join(RESULTS_DIR, name), "utf8")) as { run?: { model?: { id?: string } }; results: { protocol: string; constrained: boolean }[] };
    expect(file.run?.model?.id).toBe(model);
    expect([...new Set(file.results.map((r) => r.protocol))].sort()).toEqual(protocols);
    expect([...new Set(file.results.map((r) => r.constrained))].sort()).toEqual(constrained);
  });
});
