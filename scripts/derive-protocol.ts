// `npm run --silent derive-protocol -- FILE.jinja`: derives the tool-call format of a chat
// template and prints it as JSON (markers, argument style, reasoning markers, the format in
// words, two probe calls as the template writes them), or why it cannot be derived (exit 1).
// `npm run --silent derive-protocol -- --table DIR` derives every .jinja file of DIR and holds
// each derived protocol against the template's own turns (whole and in chunks of 1–4
// characters): the table of docs/protocols.md ("Formats derived from a template").
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describeDerivedFormat } from "toolcall-middleware/derive/describe-format.ts";
import { roundTrip } from "toolcall-middleware/derive/round-trip.ts";
import { deriveFromTemplate } from "../src/engine/templates/derived-from-template.ts";

/** Generous: a command on a shared machine should not fail a template for the machine's load (the page keeps TEMPLATE_RENDER_BUDGET). */
const BUDGET = { milliseconds: 10_000, chars: 2_000_000, rangeItems: 100_000 };

function deriveOne(path: string): number {
  let source: string;
  try {
    source = readFileSync(path, "utf8");
  } catch (error) {
    process.stderr.write(`cannot read ${path}: ${(error as Error).message}\n`);
    return 2;
  }
  const derived = deriveFromTemplate(source, path, BUDGET);
  if (!derived.ok) {
    process.stdout.write(`${JSON.stringify({ ok: false, reason: derived.reason }, null, 2)}\n`);
    return 1;
  }
  process.stdout.write(`${JSON.stringify({ ok: true, description: describeDerivedFormat(derived.format), format: derived.format }, null, 2)}\n`);
  return 0;
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, "\\n");

function table(dir: string): number {
  const rows = ["| template | derived format | result |", "| --- | --- | --- |"];
  let passed = 0;
  let failed = 0;
  let underived = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".jinja")).sort()) {
    const derived = deriveFromTemplate(readFileSync(join(dir, file), "utf8"), file, BUDGET);
    if (!derived.ok) {
      underived++;
      rows.push(`| ${file} | — | ${cell(derived.reason)} |`);
      continue;
    }
    const failure = roundTrip(derived.render, derived.format, derived.protocol).find((c) => c.failure !== undefined)?.failure;
    if (failure) failed++;
    else passed++;
    rows.push(`| ${file} | ${cell(describeDerivedFormat(derived.format).slice(0, 2).join(" "))} | ${failure ? `fails: ${cell(failure.slice(0, 160))}` : "pass"} |`);
  }
  process.stdout.write(`${rows.join("\n")}\n\n${passed} pass, ${failed} fail, ${underived} cannot be derived.\n`);
  return 0;
}

const args = process.argv.slice(2);
if (args[0] === "--table" && args[1]) process.exit(table(args[1]));
if (args.length !== 1 || args[0]!.startsWith("--")) {
  process.stderr.write("usage: npm run --silent derive-protocol -- FILE.jinja\n       npm run --silent derive-protocol -- --table DIR\n");
  process.exit(2);
}
process.exit(deriveOne(args[0]!));
