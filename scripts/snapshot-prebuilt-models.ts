// Prints, family by family, the records of WebLLM's prebuilt list that the catalogue takes, in
// the format of a family's `webllmModels.records` (packages/toolcall-middleware/src/families/<family>.ts;
// paste them there after adding a family or updating WebLLM): `npx tsx scripts/snapshot-prebuilt-models.ts`.
// A record's `paramsB` (the lab's, for an id that does not spell its size) is not WebLLM's: keep it by hand.
import { prebuiltAppConfig } from "@mlc-ai/web-llm";
import { familyOfWebLlmModel } from "toolcall-middleware/families/registry.ts";
import { isCatalogCandidate } from "../src/engine/webllm/model-catalog.ts";

const byFamily = new Map<string, string[]>();
for (const r of prebuiltAppConfig.model_list.filter((r) => isCatalogCandidate(r.model_id))) {
  const family = familyOfWebLlmModel(r.model_id)!.id;
  const model = r.model.replace("https://huggingface.co/mlc-ai/", "").replace(/\/$/, "");
  const line = `      { model_id: ${JSON.stringify(r.model_id)}, model: ${JSON.stringify(model)}, model_lib: ${JSON.stringify(r.model_lib.split("/").pop())}, vram_required_MB: ${r.vram_required_MB}, low_resource_required: ${r.low_resource_required}, overrides: { context_window_size: ${r.overrides?.context_window_size} } },`;
  byFamily.set(family, [...(byFamily.get(family) ?? []), line]);
}
for (const [family, lines] of byFamily) console.log(`// ${family}\n${lines.join("\n")}`);
