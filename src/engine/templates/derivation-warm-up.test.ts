// The derivation workers' warm-up: every template of it derives (a warm-up that failed would leave
// the interpreter's paths cold without a word), and the playground's stepwise warm-up runs each
// once, one per task, however often it is started.
import { describe, expect, it } from "vitest";
import { deriveInWorker, stepwiseWarmUp, warmUpDerivation, WARM_UP_TEMPLATES } from "./derivation-warm-up.ts";

describe("derivation warm-up", () => {
  it("derives each of its templates, the lab's own tour among them", () => {
    for (const source of WARM_UP_TEMPLATES) expect(deriveInWorker(source, "warm-up")).toMatchObject({ ok: true });
    expect(warmUpDerivation().ok).toBe(true);
    const tour = deriveInWorker(WARM_UP_TEMPLATES.at(-1)!, "tour");
    expect(tour.ok && tour.format.call.kind).toBe("name-then-tagged");
  });

  it("a template that throws is a reason, not an exception", () => {
    expect(deriveInWorker("{{ raise_exception('no') }}", "bad")).toMatchObject({ ok: false });
  });

  it("stepwise: one template per task, started once", () => {
    const tasks: (() => void)[] = [];
    const warmUp = stepwiseWarmUp((step) => void tasks.push(step));
    warmUp.start();
    warmUp.start();
    expect(tasks).toHaveLength(1);
    let steps = 0;
    while (tasks.length > 0) {
      tasks.shift()!();
      steps++;
    }
    // One task per template.
    expect(steps).toBe(WARM_UP_TEMPLATES.length);
    warmUp.start();
    expect(tasks).toHaveLength(0);
  });
});
