/** Waits until a list that a server fills holds `count` items; fails naming what arrived. */
export async function arrivals<T>(list: T[], count: number, what: string, timeoutMs = 10_000): Promise<T[]> {
  const deadline = Date.now() + timeoutMs;
  while (list.length < count) {
    if (Date.now() > deadline) throw new Error(`${list.length} of ${count} ${what} arrived in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return list;
}
