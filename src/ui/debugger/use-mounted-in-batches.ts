// How many of a long list of blocks are on the page: the first `batch` at once, then `batch`
// more in each later task until all are. Making hundreds of blocks at once (625 blocks of a
// step's tokens, 250 runs of a server's prompt) was one task of 0.4 s before anything showed;
// in batches each task is small, and the page answers input between them.
import { useEffect, useState } from "react";

export function useMountedInBatches(count: number, batch: number): number {
  const [mounted, setMounted] = useState(batch);
  useEffect(() => {
    if (mounted >= count) return;
    const timer = setTimeout(() => setMounted((was) => was + batch), 0);
    return () => clearTimeout(timer);
  }, [mounted, count, batch]);
  return Math.min(mounted, count);
}
