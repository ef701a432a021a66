// `--memory`: where a proxy's peak RSS goes during one cell — its
// process.memoryUsage() sampled every 50 ms (RSS, V8 heap, memory outside
// the heap, ArrayBuffers) beside the kernel's high-water mark.

/**
 * Samples `child` while `during` runs; returns the peaks of each figure, in MB.
 * `liveAtMs`: once, that far in, a sample right after a forced GC (the child
 * must run with --expose-gc): what is live, against what only waits for a GC.
 */
export async function sampleMemory(child, during, { everyMs = 50, liveAtMs = null, snapshot = null } = {}) {
  const peak = { rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 };
  /** the heap's spaces at the sample where RSS peaked */
  let spacesAtPeak = null;
  let running = true;
  let live = null;
  const started = Date.now();
  const sampler = (async () => {
    while (running) {
      const { memory, spaces } = await child.ask('usage', { spaces: true });
      if (memory.rss / 2 ** 20 > peak.rss) spacesAtPeak = spaces;
      for (const k of Object.keys(peak)) peak[k] = Math.max(peak[k], memory[k] / 2 ** 20);
      if (snapshot !== null && Date.now() - started >= 2000) {
        await child.ask('heap-snapshot', { file: snapshot }, 120_000);
        snapshot = null;
      }
      if (liveAtMs !== null && live === null && Date.now() - started >= liveAtMs) {
        const { memory: after } = await child.ask('usage', { gc: true });
        live = Object.fromEntries(Object.keys(peak).map((k) => [k, after[k] / 2 ** 20]));
      }
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  try {
    const result = await during();
    return { result, peak, spacesAtPeak, live };
  } finally {
    running = false;
    await sampler;
  }
}
