/** Polls `probe` until it gives a truthy value (errors count as "not yet"); generous by default, as CI is slow. */
export async function poll<T>(probe: () => Promise<T | undefined>, description: string, timeout = 15_000): Promise<T> {
  const deadline = Date.now() + timeout;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`Timed out after ${timeout} ms waiting for ${description}${cause}`);
    }
    await new Promise((resolveWait) => setTimeout(resolveWait, 100));
  }
}
