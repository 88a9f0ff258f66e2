// The conformance command: `npm run --silent conformance -- CASES.jsonl`. Reads one case a line
// (protocol, tools, chunks), streams the chunks through that protocol's parser and prints one
// JSON result a line, in order, and nothing else on stdout (see ../shared/conformance/README.md).
// A bad case gets a result line with an error; it never stops the run.
// A case whose protocol is `template:<path of a .jinja file>` is read with the protocol derived
// from that template (the path as given, else beside the cases file).
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { runConformanceCase, type ProtocolResolver } from "toolcall-middleware/protocols/conformance-case.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { Protocol } from "toolcall-middleware/types.ts";
import { deriveFromTemplate } from "../src/engine/templates/derived-from-template.ts";

const TEMPLATE_PREFIX = "template:";

/** Registered protocols by name; `template:<path>` derived once per path. */
function protocolResolver(casesPath: string): ProtocolResolver {
  const derived = new Map<string, Protocol | string>();
  return (name) => {
    if (!name.startsWith(TEMPLATE_PREFIX)) return getProtocol(name);
    const path = name.slice(TEMPLATE_PREFIX.length);
    const known = derived.get(path);
    if (known !== undefined) return known;
    const file = existsSync(path) ? path : join(dirname(casesPath), path);
    let result: Protocol | string;
    try {
      const derivation = deriveFromTemplate(readFileSync(file, "utf8"), path);
      result = derivation.ok ? derivation.protocol : derivation.reason;
    } catch (error) {
      result = `cannot read the template ${path}: ${(error as Error).message}`;
    }
    derived.set(path, result);
    return result;
  };
}

function main(): void {
  const path = process.argv[2];
  if (!path) {
    process.stderr.write("usage: npm run --silent conformance -- CASES.jsonl\n");
    process.exit(2);
  }
  let content: string;
  try {
    content = readFileSync(path, "utf8");
  } catch (error) {
    process.stderr.write(`cannot read ${path}: ${(error as Error).message}\n`);
    process.exit(2);
  }
  const resolve = protocolResolver(path);
  const lines = content.split("\n");
  const out: string[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    out.push(JSON.stringify(runConformanceCase(line, index + 1, resolve)));
  });
  process.stdout.write(out.length > 0 ? `${out.join("\n")}\n` : "");
}

main();
