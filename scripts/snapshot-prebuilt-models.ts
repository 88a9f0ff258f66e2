// Prints the records of WebLLM's prebuilt list that the catalogue takes, in the format of
// src/engine/webllm/prebuilt-models.ts (paste them there after adding a family): `npx tsx scripts/snapshot-prebuilt-models.ts`.
import { prebuiltAppConfig } from "@mlc-ai/web-llm";
import { isCatalogCandidate } from "../src/engine/webllm/model-catalog.ts";
for (const r of prebuiltAppConfig.model_list.filter((r) => isCatalogCandidate(r.model_id))) {
  const rec = { model_id: r.model_id, model: r.model.replace("https://huggingface.co/mlc-ai/", "").replace(/\/$/, ""), model_lib: r.model_lib.split("/").pop(), vram_required_MB: r.vram_required_MB, low_resource_required: r.low_resource_required, overrides: { context_window_size: r.overrides?.context_window_size } };
  console.log(`  { model_id: ${JSON.stringify(rec.model_id)}, model: ${JSON.stringify(rec.model)}, model_lib: ${JSON.stringify(rec.model_lib)}, vram_required_MB: ${rec.vram_required_MB}, low_resource_required: ${rec.low_resource_required}, overrides: { context_window_size: ${rec.overrides.context_window_size} } },`);
}
