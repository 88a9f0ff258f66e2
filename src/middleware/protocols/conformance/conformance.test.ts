// Runs our own conformance cases (cases.jsonl and one file per protocol beside this file) with the same rules as
// ../shared/conformance/check.mjs, in-process and through the real command.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runConformanceCase } from "../conformance-case.ts";

const here = fileURLToPath(new URL(".", import.meta.url));
const root = fileURLToPath(new URL("../../../../", import.meta.url));
// cases.jsonl, and one file of cases per protocol (llama3-json.jsonl, …), each with its expected results.
const caseFiles = readdirSync(here).filter((f) => f.endsWith(".jsonl") && !f.endsWith(".expected.jsonl"));
const readLines = (path: string) => readFileSync(path, "utf8").split("\n").filter((l) => l.trim() !== "");
const casesPath = join(here, "cases.jsonl");
const lines = caseFiles.flatMap((file) => readLines(join(here, file)));
interface Expected {
  id: string;
  text: string | null;
  calls: { name: string; arguments: Record<string, unknown> }[];
  errors: unknown[] | null;
}
const expected = new Map(
  caseFiles
    .flatMap((file) => readLines(join(here, file.replace(/\.jsonl$/, ".expected.jsonl"))))
    .map((l) => JSON.parse(l) as Expected)
    .map((e) => [e.id, e]),
);
const squash = (s: unknown) => String(s ?? "").replace(/\s+/g, " ").trim();

describe("conformance cases", () => {
  it.each(lines.map((line, index) => [(JSON.parse(line) as { id: string }).id, line, index] as const))("%s", (id, line, index) => {
    const want = expected.get(id)!;
    expect(want).toBeDefined();
    const got = runConformanceCase(line, index + 1);
    expect(got.id).toBe(id);
    expect(got.calls).toEqual(want.calls);
    if (want.text !== null) expect(squash(got.text)).toBe(squash(want.text));
    if (want.errors !== null) expect(got.errors.length > 0).toBe(want.errors.length > 0);
  });

  it("answers a line that is not JSON, or a case without chunks, with an error instead of crashing", () => {
    expect(runConformanceCase("{not json", 7)).toMatchObject({ id: "line-7", calls: [], errors: [{ kind: "invalid-case" }] });
    expect(runConformanceCase('{"id": "x", "protocol": "hermes"}', 1)).toMatchObject({ id: "x", errors: [{ kind: "invalid-case" }] });
  });

  it("the command prints one JSON result a line, in order, and nothing else", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/conformance.ts", casesPath], { cwd: root, encoding: "utf8" });
    expect(run.status).toBe(0);
    const out = run.stdout.split("\n").filter((l) => l !== "");
    expect(out.map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(readLines(casesPath).map((l) => (JSON.parse(l) as { id: string }).id));
  });
});
