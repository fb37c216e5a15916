/**
 * Bounded parallelism for filesystem work: many small stat/readdir/read calls in flight, never an
 * unbounded burst of file descriptors.
 */

/**
 * Maps `items` through `fn` with at most `limit` calls in flight; results keep the input order.
 * Rejects with the first error (calls already started still finish).
 */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T, index);
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker);
  await Promise.all(workers);
  return results;
}
