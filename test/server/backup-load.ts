/** A link the server acknowledged (201) and where it sends people. */
export interface Acknowledged {
  code: string;
  target: string;
}

/**
 * Creates and clicks in a loop against a server (a few requests at once), as traffic does while
 * an operator takes a backup. Bounded: it stops when told, or after `maxRequests`.
 */
export function startWriteLoad(origin: string, key: string, maxRequests = 20_000) {
  const acknowledged: Acknowledged[] = [];
  let sent = 0;
  let stopped = false;
  const worker = async (id: number) => {
    while (!stopped && sent < maxRequests) {
      sent++;
      const target = `https://example.com/load/${id}/${sent}`;
      const made = await fetch(`${origin}/api/v1/shorten`, {
        method: 'POST',
        headers: { 'X-API-Key': key },
        body: JSON.stringify({ original_url: target }),
      });
      const body = await made.json();
      if (made.status !== 201) throw new Error(`create answered ${made.status}: ${JSON.stringify(body)}`);
      acknowledged.push({ code: body.data.code, target });
      // A click on an earlier link, so click counts are written during the backup too.
      const earlier = acknowledged[sent % acknowledged.length] as Acknowledged;
      const click = await fetch(`${origin}/${earlier.code}`, { redirect: 'manual' });
      if (click.status !== 302) throw new Error(`a click on ${earlier.code} answered ${click.status}`);
      sent++;
    }
  };
  const done = Promise.all([0, 1, 2].map(worker));
  return {
    acknowledged,
    sent: () => sent,
    /** Stops the loop; rejects if any request failed while it ran. */
    async stop() {
      stopped = true;
      await done;
    },
  };
}
