// WebLLM streams each token's text as soon as it is decoded, and only later cuts its message at a
// stop string that spans several tokens: the stream then has already carried the stop string's
// start (with "</final>" as stop: "Answer </final" reaches the page, WebLLM's own message is
// "Answer "). So the engine holds back a tail that could be the start of a stop string until the
// next text shows it is not — and drops it when the generation ends by a stop. Work per chunk is
// bounded by the longest stop string: linear in the output.

export class StopStringTail {
  private held = "";
  private readonly longest: number;

  constructor(private readonly stops: readonly string[]) {
    this.longest = Math.max(0, ...stops.map((s) => s.length));
  }

  /** Takes streamed text; returns what is safe to show now. */
  push(text: string): string {
    if (this.longest === 0) return text;
    const all = this.held + text;
    const keep = this.heldLength(all);
    this.held = all.slice(all.length - keep);
    return all.slice(0, all.length - keep);
  }

  /** The end of the stream: a held tail is the start of the stop string WebLLM cut at, when it stopped. */
  end(stopped: boolean): string {
    const rest = this.held;
    this.held = "";
    return stopped ? "" : rest;
  }

  /** The longest end of `text` that is a proper start of some stop string. */
  private heldLength(text: string): number {
    for (let k = Math.min(text.length, this.longest - 1); k > 0; k--) {
      const tail = text.slice(text.length - k);
      if (this.stops.some((stop) => stop.length > k && stop.startsWith(tail))) return k;
    }
    return 0;
  }
}
