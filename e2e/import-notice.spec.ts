// The notice after an import names the file's conversation: a title holding bidi controls is
// shown with them marked (⟨U+202E⟩), never applied, as everywhere else the lab shows text.
import { expect, test } from "@playwright/test";
import { openLab } from "./lab-helpers.ts";

test("the import notice marks bidi controls in the imported title instead of applying them", async ({ page }) => {
  const user = { role: "user", content: "Hi" };
  const answer = { role: "assistant", content: "Hello.", protocol: "hermes" };
  const base = { runId: "r1", at: 1_700_000_000_000 };
  const file = {
    format: "toolcall-lab/conversation",
    version: 1,
    title: "invoice\u202efdp.exe",
    createdAt: 1,
    events: [
      { ...base, type: "run-start", protocol: "hermes", messages: [user], tools: [], limits: { maxSteps: 4, toolTimeoutMs: 1000 } },
      { ...base, type: "message", message: answer },
      { ...base, type: "run-end", status: "final", messages: [user, answer] },
    ],
  };
  await openLab(page, "hermes-calculator");
  await page.getByTestId("import-file").setInputFiles({ name: "session.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(file)) });
  const notice = page.getByTestId("import-message");
  await expect(notice).toContainText("Imported");
  await expect(notice.getByTestId("bidi-mark")).toHaveText("⟨U+202E⟩");
  expect(await notice.innerText()).not.toContain("\u202e");
  expect(await notice.innerText()).toContain("invoice⟨U+202E⟩fdp.exe");
  await notice.screenshot({ path: "e2e/.output/import-notice-bidi.png" });
});
