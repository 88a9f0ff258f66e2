// `npm run bench`: the project's benchmarks, printing figures (never pass/fail on speed).
// BENCH_PEER_CAP_MS bounds each run of the peer parser (default 20 s); its partial figures are shown.
import { runAiSdkBenchmark } from "./ai-sdk.ts";
import { runDetectFormatBenchmark } from "./detect-format.ts";
import { runEvalBenchmark } from "./eval.ts";
import { runGgufTokenizerBenchmark } from "./gguf-tokenizer.ts";
import { runMarkdownBenchmark } from "./markdown-render.ts";
import { runParserNesting } from "./parser-nesting.ts";
import { runParserThroughput } from "./parser-throughput.ts";
import { runParserUnfinished } from "./parser-unfinished.ts";
import { runSavedLogBenchmark } from "./saved-log.ts";
import { runTokenizeBenchmark } from "./token-view.ts";
import { runUiPerfBenchmark } from "./ui-perf.ts";

const peerCapMs = Number(process.env.BENCH_PEER_CAP_MS ?? 20_000);
await runParserThroughput({ peerCapMs: Number.isFinite(peerCapMs) && peerCapMs > 0 ? peerCapMs : 20_000 });
runMarkdownBenchmark();
await runParserNesting();
runParserUnfinished();
await runTokenizeBenchmark();
await runGgufTokenizerBenchmark();
await runAiSdkBenchmark();
await runSavedLogBenchmark();
await runDetectFormatBenchmark();
// The UI benchmark builds the app and drives Chromium (BENCH_SKIP_UI=1 leaves it out).
if (!process.env.BENCH_SKIP_UI) await runUiPerfBenchmark();
// The evaluation: per-case cost, the command's rate, long tasks with the Evaluate view (it reuses the UI build).
await runEvalBenchmark({ browser: !process.env.BENCH_SKIP_UI, reuseBuild: !process.env.BENCH_SKIP_UI });
