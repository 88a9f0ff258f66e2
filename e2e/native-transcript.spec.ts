// A run made with the server engine in native mode (the server's own tool calling) becomes a
// replay transcript that reproduces it: exported from the page, loaded as a replay, the same
// question runs the same call with the same result and ends with the same answer. (The native
// step's call used to be dropped: it is not in the raw text, so the replay had one turn too few.)
import { expect, test } from "@playwright/test";
import { startOpenAiTestServer, type OpenAiTestServer } from "./openai-server/server.ts";
import { openLab, send, serveTranscript } from "./lab-helpers.ts";

let server: OpenAiTestServer;
test.beforeAll(async () => {
  server = await startOpenAiTestServer({ models: [{ id: "Qwen/Qwen3-8B", max_model_len: 32768 }] });
});
test.afterAll(() => server.close());

test("a native-mode run exported as a transcript replays the same call and answer", async ({ page }) => {
  server.script({ reasoning: ["Use the calculator."], toolCalls: [{ name: "calculator", argumentChunks: ['{"expression"', ': "2 + 3"}'] }] }, { text: ["It is ", "5."] });
  await page.goto("/");
  await page.getByTestId("engine-select").selectOption("openai");
  await page.getByTestId("openai-base-url").fill(server.url);
  await page.getByTestId("openai-connect-button").click();
  await expect(page.getByTestId("openai-model-select")).toHaveValue("Qwen/Qwen3-8B");
  await page.getByTestId("openai-mode").selectOption("native");
  await send(page, "What is 2 + 3?");
  await expect(page.getByTestId("message-assistant").last()).toHaveAttribute("data-status", "final");
  await expect(page.getByTestId("tool-call-card")).toHaveAttribute("data-status", "ok");

  const download = page.waitForEvent("download");
  await page.getByTestId("export-transcript").click();
  const chunks: Buffer[] = [];
  for await (const chunk of await (await download).createReadStream()) chunks.push(chunk as Buffer);
  const transcript = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { protocol: string; turns: string[]; title: string; description: string };
  expect(transcript.protocol).toBe("hermes");
  expect(transcript.turns).toHaveLength(2);
  expect(transcript.turns[0]).toContain("<tool_call>");
  expect(transcript.description).toContain("written in hermes");

  const path = await serveTranscript(page, "native-run", transcript);
  await openLab(page, path);
  await page.getByTestId("new-conversation").click();
  await send(page, "What is 2 + 3?");
  const reply = page.getByTestId("message-assistant").last();
  await expect(reply).toHaveAttribute("data-status", "final");
  await expect(reply.getByTestId("tool-call-card")).toHaveAttribute("data-status", "ok");
  await expect(reply.getByTestId("tool-call-card")).toContainText("5");
  await expect(reply).toContainText("It is 5.");
  await expect(reply).toContainText("Use the calculator.");
  await page.screenshot({ path: "e2e/.output/native-transcript-replay.png" });
});
