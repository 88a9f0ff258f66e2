import { describe, expect, it } from "vitest";
import { chooseThreads, measureThreads, THREAD_GAIN_NEEDED } from "./thread-probe.ts";

describe("chooseThreads", () => {
  it("takes two threads where two at once were measured clearly faster than one", () => {
    const choice = chooseThreads([{ threads: 1, piecesPerSecond: 1000 }, { threads: 2, piecesPerSecond: 1850 }]);
    expect(choice.threads).toBe(2);
    expect(choice.note).toBe("2 threads, chosen by measuring the cores (measured against one: 2 at once 1.85×)");
  });

  it("stays on one where more gained too little or lost (cores busy with other programs: the barrier waits)", () => {
    expect(chooseThreads([{ threads: 1, piecesPerSecond: 1000 }, { threads: 2, piecesPerSecond: 150 }]).threads).toBe(1);
    const justUnder = chooseThreads([{ threads: 1, piecesPerSecond: 1000 }, { threads: 2, piecesPerSecond: 1000 * THREAD_GAIN_NEEDED - 1 }]);
    expect(justUnder.threads).toBe(1);
    expect(justUnder.note).toMatch(/^1 thread, chosen by measuring the cores \(measured against one: 2 at once 1\.20×; other programs may be using them\)$/);
  });

  it("takes the fastest count that gains enough, not the largest", () => {
    const choice = chooseThreads([
      { threads: 1, piecesPerSecond: 1000 },
      { threads: 2, piecesPerSecond: 1900 },
      { threads: 4, piecesPerSecond: 2600 },
      { threads: 8, piecesPerSecond: 900 },
    ]);
    expect(choice.threads).toBe(4);
    expect(choice.note).toContain("2 at once 1.90×, 4 at once 2.60×, 8 at once 0.90×");
  });

  it("says so and runs on one where the single run measured nothing", () => {
    expect(chooseThreads([{ threads: 2, piecesPerSecond: 500 }])).toMatchObject({ threads: 1, note: "1 thread (the measurement of the cores failed)" });
    expect(chooseThreads([{ threads: 1, piecesPerSecond: 0 }, { threads: 2, piecesPerSecond: 500 }]).threads).toBe(1);
  });
});

describe("measureThreads", () => {
  it("does not measure where threads cannot share memory (here: no cross-origin isolated page) or one core is all", async () => {
    expect(await measureThreads(1)).toEqual({ threads: 1, note: "1 thread", runs: [] });
    expect(await measureThreads(4)).toEqual({ threads: 1, note: "1 thread", runs: [] });
  });
});
