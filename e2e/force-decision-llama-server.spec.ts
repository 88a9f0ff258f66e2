// Forcing the decision in the page against a real llama.cpp server (SmolLM2 135M, prompt mode,
// temperature 0): the step's decision point is measured by the opener probe (its request is
// the step's prompt with a grammar of the marker's token ids and one probability per token),
// the protocol table fills with one measured row per protocol, and "Force no call here" on a
// call made by a grammar sends llama.cpp's logit bias. Asserted on what was sent and what the
// page shows of the runtime's numbers, never on the model's words. Screenshots at 1440 and 390 px.
import { expect, test, type Page } from "@playwright/test";
import { realModelsForTests, startLlamaServer, type LlamaServer } from "../scripts/real-models/llama-server-process.ts";
import { send } from "./lab-helpers.ts";

const SMOLLM2 = "smollm2-135m-instruct-q4_1";
const real = realModelsForTests([SMOLLM2]);
const missing = real.run ? undefined : real.why;
const SHOTS = "test-results/screenshots";

function recordRequests(page: Page, server: LlamaServer): Array<{ path: string; body: Record<string, unknown> }> {
  const sent: Array<{ path: string; body: Record<string, unknown> }> = [];
  page.on("request", (request) => {
    if (request.method() !== "POST" || !request.url().startsWith(server.url)) return;
    sent.push({ path: new URL(request.url()).pathname, body: (request.postDataJSON() ?? {}) as Record<string, unknown> });
  });
  return sent;
}

test.describe("forcing the decision on llama-server with SmolLM2", () => {
  test.skip(missing !== undefined, missing);
  let server: LlamaServer;
  test.beforeAll(async () => {
    server = await startLlamaServer({ modelId: SMOLLM2 });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test("the opener probe measures the decision point, and the protocol table measures each protocol", async ({ page }) => {
    test.setTimeout(540_000);
    const sent = recordRequests(page, server);
    await page.goto("/");
    await page.getByTestId("engine-select").selectOption("openai");
    await page.getByTestId("openai-base-url").fill(server.baseUrl);
    // The key this start of llama-server asks for, typed as a person would (llama-server-process.ts).
    await page.getByTestId("openai-api-key").fill(server.apiKey);
    await page.getByTestId("openai-connect-button").click();
    await expect(page.getByTestId("engine-status")).toContainText("the server lists 1 model");
    await page.getByTestId("setting-temperature").fill("0");
    await page.getByTestId("setting-max-tokens").fill("16");
    await page.getByTestId("openai-mode").selectOption("prompt");
    await page.getByTestId("protocol-select").selectOption("hermes");
    await send(page, "Hello! Who are you?");
    await expect(page.getByTestId("message-assistant").last()).toHaveAttribute("data-status", /final|cut-off/, { timeout: 180_000 });
    const step = sent.find((r) => r.path === "/v1/completions" && r.body.logprobs === 5)!;
    // The probe: the step's own prompt, a grammar of token ids, one probability per token.
    const probe = sent.find((r) => r.path === "/v1/completions" && r.body.logprobs === 1)!;
    expect(probe.body.prompt).toBe(step.body.prompt);
    expect(String(probe.body.grammar)).toMatch(/^root ::= (<\[\d+\]> ?)+$/);
    await page.locator("[data-testid=step-item]").first().click();
    await expect(page.getByTestId("decision-point")).toContainText("a call would have opened with `<tool_call>` at p = ");
    await expect(page.getByTestId("decision-point")).toContainText("(measured: the product of its");

    await page.getByTestId("protocol-lean-run").click();
    const rows = page.getByTestId("protocol-lean-row");
    await expect(rows).toHaveCount(4, { timeout: 300_000 });
    await expect(page.getByTestId("protocol-lean-note")).toContainText("Measured on", { timeout: 300_000 });
    for (const row of await rows.all()) {
      const p = Number(await row.getAttribute("data-p"));
      expect(p).toBeGreaterThan(0);
      expect(p).toBeLessThanOrEqual(1);
    }
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.getByTestId("step-decision").scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/protocol-lean-${width}.png` });
    }
  });
});
