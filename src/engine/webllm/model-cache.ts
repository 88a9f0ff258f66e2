// Which models are in the browser's cache, and deleting one — asked of WebLLM's own functions in
// a short-lived model worker (lab-worker-handler.ts), so the page needs no copy of WebLLM.
// Deleting a model also removes files other models share (see sharedFiles in model-catalog.ts).
import { classifyEngineError, EngineFailure } from "./engine-errors.ts";
import { createModelWorker } from "./model-worker.ts";
import { ModelWorkerClient, type WorkerLike } from "./worker-client.ts";
import { LAB_CACHE_STATUS, LAB_DELETE_FROM_CACHE } from "./worker-protocol.ts";

async function withWorker<T>(task: (client: ModelWorkerClient) => Promise<T>, createWorker: () => WorkerLike): Promise<T> {
  const client = new ModelWorkerClient(createWorker());
  try {
    return await task(client);
  } finally {
    client.terminate();
  }
}

/** Whether each model's weights are in the cache (false where the check itself fails). */
export async function queryCacheStatus(modelIds: string[], createWorker: () => WorkerLike = createModelWorker): Promise<Record<string, boolean>> {
  if (modelIds.length === 0) return {};
  try {
    return await withWorker((client) => client.request<Record<string, boolean>>(LAB_CACHE_STATUS, { modelIds }), createWorker);
  } catch {
    return Object.fromEntries(modelIds.map((id) => [id, false]));
  }
}

export async function deleteModelFromCache(modelId: string, createWorker: () => WorkerLike = createModelWorker): Promise<void> {
  try {
    await withWorker((client) => client.request(LAB_DELETE_FROM_CACHE, { modelId }), createWorker);
  } catch (error) {
    const failure = classifyEngineError(error, { phase: "load", modelId });
    throw new EngineFailure(failure.kind, `Could not delete "${modelId}" from the cache: ${failure.detail}`, "Clear the site's data in the browser settings instead.", failure.detail);
  }
}
