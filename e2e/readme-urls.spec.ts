// Every page address the README and docs/ give (`/?…` or `?…` in code) opens what it names, with
// no error notice: a newcomer's first click must work. The list is read from the pages themselves,
// so a new example is tested as soon as it is written. (Links between pages: src/docs-links.test.ts.)
import { readdirSync, readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { isBuiltInTranscriptName } from "../src/engine/replay/built-in-transcripts.ts";

const docs = new URL("../docs/", import.meta.url);
const readme = [
  readFileSync(new URL("../README.md", import.meta.url), "utf8"),
  ...readdirSync(docs).filter((name) => name.endsWith(".md")).map((name) => readFileSync(new URL(name, docs), "utf8")),
].join("\n");

/** Addresses in code spans; `<…>` marks a placeholder to fill in, not an address to open. */
const urls = [...new Set([...readme.matchAll(/`(\/?\?[^`\s]+)`/g)].map((match) => match[1]!))]
  .filter((url) => !/[<>]/.test(url))
  .map((url) => (url.startsWith("/") ? url : `/${url}`));

test("the README and docs give at least one page address to try", () => {
  expect(urls.length).toBeGreaterThan(0);
});

for (const url of urls) {
  test(`README address ${url} opens what it names`, async ({ page }) => {
    const params = new URLSearchParams(url.slice(url.indexOf("?")));
    await page.goto(url);
    if (params.get("view") === "playground") {
      // The parser playground is a page of its own: it opens with its sample parsed.
      await expect(page.getByTestId("playground-call")).toHaveCount(1);
      return;
    }
    await expect(page.getByTestId("session-list")).toBeVisible();
    const engine = params.get("engine") ?? (params.get("transcript") ? "replay" : "webllm");
    await expect(page.getByTestId("engine-select")).toHaveValue(engine);

    const transcript = params.get("transcript");
    if (engine === "replay") {
      // Loaded, or an error notice: whichever comes; an error fails with its own words.
      const ready = page.locator('[data-testid="engine-status"][data-state="ready"]');
      await expect(ready.or(page.getByTestId("engine-error")).first()).toBeVisible();
      expect(await page.getByTestId("engine-error").allInnerTexts()).toEqual([]);
      await expect(ready).toBeVisible();
      await expect(page.getByTestId("transcript-info")).toBeVisible();
      if (transcript && isBuiltInTranscriptName(transcript)) await expect(page.getByTestId("transcript-select")).toHaveValue(transcript);
      else if (transcript) await expect(page.getByTestId("transcript-url")).toHaveValue(transcript);
    }
    const model = params.get("model");
    if (model) await expect(page.getByTestId("model-select")).toHaveValue(model);
    await expect(page.getByTestId("engine-error")).toHaveCount(0);
  });
}
