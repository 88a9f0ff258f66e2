// The parser playground reads an output with the protocol derived from a pasted chat template:
// the derivation is shown in words, the calls are read, and a template that cannot be derived
// from (no tool calls, or one that loops) says why while the page stays usable.
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";

const SHOTS = "e2e/.output";
const TEMPLATES = "src/engine/templates/llama-cpp-templates";
const glmTemplate = readFileSync(`${TEMPLATES}/GLM-4.6.jinja`, "utf8");
const gemma2Template = readFileSync(`${TEMPLATES}/google-gemma-2-2b-it.jinja`, "utf8");
const GLM_OUTPUT = "I will look up the time.\n<tool_call>get_current_time\n<arg_key>timezone</arg_key>\n<arg_value>Europe/Paris</arg_value>\n</tool_call>";

for (const width of [1440, 390]) {
  test(`the playground derives a protocol from a pasted template and reads calls with it (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 1000 });
    await page.goto("/?view=playground");
    await page.getByTestId("playground-protocol").selectOption("template");
    await page.getByTestId("playground-template").fill(glmTemplate);
    await page.getByTestId("playground-output").fill(GLM_OUTPUT);
    const derivation = page.getByTestId("playground-derivation");
    await expect(derivation).toHaveAttribute("data-derived", "true");
    await expect(derivation).toContainText("A call is `<tool_call>` + the tool's name + each argument as");
    await expect(derivation).toContainText("Reasoning sits between `<think>` and `</think>`.");
    const calls = page.getByTestId("playground-call");
    await expect(calls).toHaveCount(1);
    await expect(calls.first()).toContainText("get_current_time");
    await expect(calls.first()).toContainText("Europe/Paris");
    await page.getByTestId("playground-chunking").selectOption("char");
    await expect(page.getByTestId("playground-agreement")).toHaveAttribute("data-agrees", "true");
    await page.screenshot({ path: `${SHOTS}/playground-derived-${width}.png`, fullPage: width === 390 });
  });
}

test("a pasted template that cannot be derived from says why, and the playground stays usable", async ({ page }) => {
  await page.goto("/?view=playground");
  await page.getByTestId("playground-protocol").selectOption("template");
  const template = page.getByTestId("playground-template");
  const derivation = page.getByTestId("playground-derivation");
  await template.fill(gemma2Template);
  await expect(derivation).toHaveAttribute("data-derived", "false");
  await expect(derivation).toContainText("cannot derive: the template writes nothing for a tool call");
  // A template that loops is stopped by the renderer's bounds.
  await template.fill("{% for i in range(90000) %}{% for j in range(90000) %}{% endfor %}{% endfor %}");
  await expect(derivation).toContainText("cannot derive:");
  await expect(derivation).toContainText("time budget");
  await template.fill("{% if %}");
  await expect(derivation).toContainText("cannot derive: the template is not valid Jinja");
  // Another protocol still reads at once.
  await page.getByTestId("playground-protocol").selectOption("glm45");
  await page.getByTestId("playground-output").fill(GLM_OUTPUT);
  await expect(page.getByTestId("playground-call")).toHaveCount(1);
});
