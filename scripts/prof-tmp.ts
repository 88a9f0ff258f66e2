import { readFileSync } from "node:fs";
import { Template } from "@huggingface/jinja";
import { deriveFormat } from "../packages/toolcall-middleware/src/derive/derive-format.ts";
import { renderWithinBudget } from "../src/engine/cpu/jinja-budget.ts";
const BUDGET = { milliseconds: 10_000, chars: 2_000_000, rangeItems: 100_000 };
for (const f of ["Apertus-8B-Instruct", "Cohere2MoE", "Kimi-K3", "GigaChat3.1-10B-A1.8B", "Qwen3-Coder"]) {
  const src = readFileSync(`src/engine/templates/llama-cpp-templates/${f}.jinja`, "utf8");
  const parse: number[] = []; const derive: number[] = []; let renders = 0;
  for (let i = 0; i < 8; i++) {
    let t = performance.now();
    const template = new Template(src);
    parse.push(performance.now() - t);
    renders = 0;
    t = performance.now();
    deriveFormat((v) => { renders++; return renderWithinBudget(template, v, BUDGET, f); });
    derive.push(performance.now() - t);
  }
  const med = (a: number[]) => [...a].sort((x, y) => x - y)[4]!.toFixed(1);
  console.log(f, "parse", med(parse), "derive", med(derive), "renders", renders);
}
