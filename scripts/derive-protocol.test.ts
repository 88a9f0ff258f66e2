// The command-line side of derived protocols: `derive-protocol` prints a template's format or
// why it has none; `conformance` reads a case whose protocol is `template:<path>` with the
// protocol derived from that template.
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const TEMPLATES = resolve("src/engine/templates/llama-cpp-templates");
const dir = mkdtempSync(join(tmpdir(), "derive-protocol-"));

async function npmRun(script: string, ...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run("npm", ["run", "--silent", script, "--", ...args], { encoding: "utf8" });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

describe("npm run derive-protocol", () => {
  it("prints the derived format of a template as JSON", async () => {
    const { stdout, code } = await npmRun("derive-protocol", join(TEMPLATES, "Qwen3-Coder.jinja"));
    expect(code).toBe(0);
    const printed = JSON.parse(stdout) as { ok: boolean; description: string[]; format: { callOpen: string; call: { kind: string; keyOpen: string } } };
    expect(printed.ok).toBe(true);
    expect(printed.format.callOpen).toBe("<tool_call>\n<function=");
    expect(printed.format.call).toMatchObject({ kind: "name-then-tagged", keyOpen: "\n<parameter=" });
    expect(printed.description[0]).toMatch(/^A call is `<tool_call>\\n<function=` \+ the tool's name/);
  }, 60_000);

  it("prints why a template without tool calls cannot be derived, and exits 1", async () => {
    const { stdout, code } = await npmRun("derive-protocol", join(TEMPLATES, "google-gemma-2-2b-it.jinja"));
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toEqual({ ok: false, reason: "cannot derive: the template writes nothing for a tool call (it has no tool calls)" });
  }, 60_000);
});

describe("npm run conformance with protocol template:<path>", () => {
  it("reads a case with the protocol derived from the template, and says why for one it cannot derive", async () => {
    const tools = [{ name: "get_weather", description: "", parameters: { type: "object", properties: { city: { type: "string" } } } }];
    const cases = [
      { id: "glm", protocol: `template:${join(TEMPLATES, "GLM-4.6.jinja")}`, tools, chunks: ["Sure.<tool_call>get_we", "ather\n<arg_key>city</arg_key>\n<arg_va", "lue>Paris</arg_value>\n</tool_call>"] },
      { id: "gemma2", protocol: `template:${join(TEMPLATES, "google-gemma-2-2b-it.jinja")}`, tools, chunks: ["hi"] },
    ];
    const file = join(dir, "cases.jsonl");
    writeFileSync(file, cases.map((c) => JSON.stringify(c)).join("\n"));
    const { stdout, code } = await npmRun("conformance", file);
    expect(code).toBe(0);
    const [glm, gemma2] = stdout.trim().split("\n").map((l) => JSON.parse(l) as { id: string; text: string; calls: unknown[]; errors: { kind: string; message: string }[] });
    expect(glm).toMatchObject({ id: "glm", text: "Sure.", calls: [{ name: "get_weather", arguments: { city: "Paris" } }], errors: [] });
    expect(gemma2!.errors).toEqual([{ kind: "unknown-protocol", message: expect.stringMatching(/cannot derive: the template writes nothing for a tool call/) }]);
  }, 60_000);
});
