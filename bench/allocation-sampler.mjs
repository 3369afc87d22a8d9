// Loaded into a server by `bench/allocations.mjs` (`node --import`), never by Linklet itself: V8's
// sampling heap profiler over the in-process inspector, started by the first SIGUSR2 and stopped
// by the second, which writes the profile to ALLOCATION_PROFILE. Objects the collector has taken
// since are counted too: what a request costs the collector is what it allocates, not what lives.
import { renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

const out = process.env.ALLOCATION_PROFILE;
if (!out) throw new Error('ALLOCATION_PROFILE is not set: where should the profile go?');
const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
let sampling = false;
process.on('SIGUSR2', async () => {
  sampling = !sampling;
  if (sampling) {
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: Number(process.env.ALLOCATION_SAMPLING_BYTES ?? 128),
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    return;
  }
  const { profile } = await session.post('HeapProfiler.stopSampling');
  // The tree alone (not each sample), renamed into place whole: the bench reads it once it exists.
  writeFileSync(`${out}.part`, JSON.stringify({ head: profile.head }));
  renameSync(`${out}.part`, out);
});
