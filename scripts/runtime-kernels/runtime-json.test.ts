// The page's runtime writes token pieces that are not UTF-8 on their own (a part of an emoji or
// of a CJK character) into its JSON replies without failing: the real SmolLM2 in Chromium, asked
// for token probabilities after a prompt of emoji, through wllama's shipped runtime (which fails
// with the "GLUE" error the issue saw: "Invalid typed array length: 1163217991") and through the
// lab's (patch-runtime.ts's JSON edit), which answers. Asserts on what the runtime reports (an
// error or not, the tokens' bytes), never on the words.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchHarnessBrowser, openHarnessPage, startHarnessServer } from "../../bench/runtime-harness/harness-server.ts";
import { systemChromiumPath } from "../../e2e/browser.ts";
import { realModelsForTests } from "../real-models/llama-server-process.ts";

const MODEL = "smollm2-135m-instruct-q4_1";
const real = realModelsForTests([MODEL]);
const executablePath = systemChromiumPath();

/** Whether these bytes are UTF-8 text by themselves (no character cut at either end). */
const isUtf8 = (bytes: number[]) => {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(bytes));
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(!real.run || !executablePath)(`the page's runtime and token pieces that are not UTF-8 (${real.run ? "real SmolLM2" : real.why})`, () => {
  let harnessServer: Awaited<ReturnType<typeof startHarnessServer>> | undefined;
  let base: string;
  beforeAll(async () => {
    harnessServer = await startHarnessServer();
    base = harnessServer.base;
  }, 120_000);
  afterAll(async () => {
    await harnessServer?.close();
  });

  it("answers with the tokens' bytes where wllama's shipped runtime fails the call", async () => {
    const browser = await launchHarnessBrowser();
    try {
      const page = await openHarnessPage(browser, base);
      const run = (runtime: string) =>
        page.evaluate(
          async ([url, runtime]) => {
            const harness = (globalThis as unknown as { harness: { load(o: object): Promise<unknown>; run(o: object): Promise<{ tokens: Array<{ token: string; bytes?: number[]; top: Array<{ bytes?: number[] }> }> }> } }).harness;
            await harness.load({ url, threads: 1, runtime, contextSize: 512 });
            try {
              return { tokens: (await harness.run({ prompt: "😀😀😀", nPredict: 8, nProbs: 10 })).tokens };
            } catch (error) {
              return { error: String((error as Error)?.message ?? error) };
            }
          },
          [`${base}/models/${MODEL}.gguf`, runtime] as const,
        );
      const shipped = await run("shipped");
      expect(shipped).toEqual({ error: expect.stringMatching(/Invalid typed array length: 1163217991/) });
      const lab = await run("relaxed-simd");
      expect(lab).not.toHaveProperty("error");
      const tokens = ("tokens" in lab ? lab.tokens : undefined) ?? [];
      expect(tokens.length).toBeGreaterThan(0);
      const pieces = tokens.flatMap((t) => [t.bytes ?? [], ...t.top.map((a) => a.bytes ?? [])]);
      // The condition that made the shipped runtime throw is there: pieces that are not text alone.
      expect(pieces.filter((bytes) => bytes.length > 0 && !isUtf8(bytes)).length).toBeGreaterThan(0);
    } finally {
      await browser.close();
    }
  }, 300_000);
});
