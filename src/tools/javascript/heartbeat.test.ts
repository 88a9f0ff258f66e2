import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startHeartbeat, type Heartbeat } from "./heartbeat.ts";

describe("startHeartbeat", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  const options = { intervalMs: 1000, silentAfterMs: 5000, now: () => Date.now() };

  it("stays quiet while every ping is answered", () => {
    const onSilent = vi.fn();
    const heartbeat: Heartbeat = startHeartbeat(() => heartbeat.answered(), onSilent, options);
    vi.advanceTimersByTime(60_000);
    expect(onSilent).not.toHaveBeenCalled();
    heartbeat.stop();
  });

  it("reports silence once a ping has gone unanswered long enough, and only once", () => {
    const onSilent = vi.fn();
    const ping = vi.fn();
    startHeartbeat(ping, onSilent, options);
    vi.advanceTimersByTime(5_000);
    expect(onSilent).not.toHaveBeenCalled();
    vi.advanceTimersByTime(2_000);
    expect(onSilent).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(60_000);
    expect(onSilent).toHaveBeenCalledTimes(1);
    expect(ping).toHaveBeenCalledTimes(1);
  });

  it("does not conclude from one late check: a blocked page must give a queued answer a chance", () => {
    const onSilent = vi.fn();
    startHeartbeat(() => undefined, onSilent, options);
    vi.advanceTimersByTime(1_000);
    // The page's own thread was blocked for a minute: the clock jumps, one tick runs.
    vi.setSystemTime(Date.now() + 60_000);
    vi.advanceTimersByTime(1_000);
    expect(onSilent).not.toHaveBeenCalled();
  });

  it("stops pinging when stopped", () => {
    const ping = vi.fn();
    const onSilent = vi.fn();
    const heartbeat = startHeartbeat(ping, onSilent, options);
    vi.advanceTimersByTime(1_000);
    heartbeat.stop();
    vi.advanceTimersByTime(60_000);
    expect(ping).toHaveBeenCalledTimes(1);
    expect(onSilent).not.toHaveBeenCalled();
  });
});
