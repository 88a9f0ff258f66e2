// `npm run bench`: the project's benchmarks, printing figures (never pass/fail on speed).
// BENCH_PEER_CAP_MS bounds each run of the peer parser (default 20 s); its partial figures are shown.
import { runParserThroughput } from "./parser-throughput.ts";

const peerCapMs = Number(process.env.BENCH_PEER_CAP_MS ?? 20_000);
await runParserThroughput({ peerCapMs: Number.isFinite(peerCapMs) && peerCapMs > 0 ? peerCapMs : 20_000 });
