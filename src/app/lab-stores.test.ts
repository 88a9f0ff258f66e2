// Two sets of stores are two pages: nothing one does shows in the other, and each set's
// controllers work on their own set's stores (no module-level store ties them together).
import { describe, expect, it } from "vitest";
import { createLabStores } from "./lab-stores.ts";
import { evaluationOf } from "./on-demand-stores.ts";

describe("createLabStores", () => {
  it("makes stores that share no state with another page's", async () => {
    const a = createLabStores();
    const b = createLabStores();
    a.protocol.getState().setProtocol("xml");
    a.debugger.getState().selectStep("s1");
    a.tokensWanted.getState().want();
    expect(a.protocol.getState().protocol).toBe("xml");
    expect(b.protocol.getState().protocol).not.toBe("xml");
    expect(b.debugger.getState().stepId).toBeNull();
    expect(b.tokensWanted.getState().wanted).toBe(false);

    await a.conversations.conversationActions.init(null);
    expect(a.conversations.store.getState().active).not.toBeNull();
    expect(b.conversations.store.getState().active).toBeNull();
  });

  it("wires each page's controllers to that page's stores", async () => {
    const a = createLabStores();
    const b = createLabStores();
    await a.conversations.conversationActions.init(null);
    await b.conversations.conversationActions.init(null);
    // Nothing started the lab (no run environment): the message is refused, on that page only.
    expect(await a.runController.sendMessage("hi")).toBe(false);
    expect(a.run.getState().notice).toBe("The lab is still starting; try again in a moment.");
    expect(b.run.getState().notice).toBeNull();
    // The branch controller of a page reads that page's run controller.
    const rerun = await b.branchController.rerunStep({} as Parameters<typeof b.branchController.rerunStep>[0], "out");
    expect(rerun).toEqual({ error: "No engine to re-run on: The lab is still starting; try again in a moment." });
  });

  it("makes a page's evaluation on first use, once, and keeps it in that page's stores", () => {
    const a = createLabStores();
    const b = createLabStores();
    expect(a.onDemand.evaluation).toBeUndefined();
    const evaluation = evaluationOf(a);
    expect(a.onDemand.evaluation).toBe(evaluation);
    // Asked again (the Evaluate view opened a second time), the same evaluation: a run goes on.
    expect(evaluationOf(a)).toBe(evaluation);
    evaluation.store.setState({ status: "running" });
    // The other page has none until it asks, then its own.
    expect(b.onDemand.evaluation).toBeUndefined();
    expect(evaluationOf(b)).not.toBe(evaluation);
    expect(evaluationOf(b).store.getState().status).toBe("idle");
  });
});
