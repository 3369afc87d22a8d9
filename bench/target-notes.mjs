// The lines under bench/run.mjs's table that set a figure beside its target and say whether it
// meets it: each scenario against the bare baseline of its rounds, and scenarios of one group
// against each other (each round's pair, then the median). The targets are docs/performance.md's.

/**
 * "meets" or "MISSES" (upper case, so a miss stands out in a long log): `value` at least `target`,
 * or at most it when `atMost` (a cost).
 */
export const verdict = (value, target, atMost = false) =>
  value !== undefined && (atMost ? value <= target : value >= target) ? 'meets' : 'MISSES';

/** Requests/s of `a` over `b`, round by round, then the median (higher is better). */
const rpsRatioOf = (median) => (a, b) =>
  median(a.runs.linklet.map((run, i) => run.rps / (b.runs.linklet[i]?.rps ?? Number.NaN)));
/** CPU per request of `b` over `a`, round by round, then the median (higher is better). */
const cpuRatioOf = (median) => (a, b) =>
  median(a.runs.linklet.map((run, i) => (b.runs.linklet[i]?.cpuUs ?? Number.NaN) / run.cpuUs));

// Against the bare baseline: the CPU it spends per request over Linklet's, in the same rounds.
const AGAINST_BASELINE = [
  { id: 'redirect-hot', what: 'a logged redirect (one hot code)', bare: '302', target: 0.75, goal: 0.85 },
  { id: 'create', what: 'a durable create (generated code)', bare: '201', target: 0.4, goal: 0.5 },
];

// A million links against a thousand; the uncounted pair has no target: it shows what finding a
// link costs apart from writing its clicks.
const SCALE_PAIRS = [
  { small: 'redirect-1k', large: 'redirect-1m', target: 0.8 },
  { small: 'redirect-1k', large: 'redirect-1m-zipf', target: 0.9 },
  { small: 'redirect-1k-uncounted', large: 'redirect-1m-uncounted' },
];

// A feature on against off, in the same rounds: each may cost at most 5 % of the redirects/s.
const ON_OFF_PAIRS = [
  { on: 'redirect-counting-on', off: 'redirect-counting-off', what: 'counting clicks', feature: 'counting' },
  { on: 'redirect-visits-on', off: 'redirect-visits-off', what: 'visits', feature: 'visits' },
];

/**
 * The target lines of `rows` (bench/run.mjs's rows: scenario id, store, log, medians and each
 * round's figures), for every store and log mode measured.
 */
export function targetNotes(rows, { stores, logs, median, fmt }) {
  const rpsRatio = rpsRatioOf(median);
  const cpuRatio = cpuRatioOf(median);
  const notes = [];
  for (const store of stores) {
    for (const log of logs) {
      const find = (id) => rows.find((row) => row.id === id && row.store === store && row.log === log);
      const prefix = `${store}, log to ${log}:`;
      for (const { id, what, bare, target, goal } of AGAINST_BASELINE) {
        const row = find(id);
        if (!row) continue;
        const ratio = row.cpuRatio;
        notes.push(
          `${prefix} ${what} spent ${fmt(row.linklet.cpuUs, 1)} µs of CPU against the bare ${bare}'s ${fmt(row.baseline.cpuUs, 1)}: ` +
            `CPU ratio ${fmt(ratio, 2)} (target ≥ ${target}, goal ${goal}: ${verdict(ratio, target)})`,
        );
      }
      for (const { small: smallId, large: largeId, target } of SCALE_PAIRS) {
        const [small, large] = [find(smallId), find(largeId)];
        if (!small || !large) continue;
        const ratio = rpsRatio(large, small);
        notes.push(
          `${prefix} "${large.scenario}" served ${fmt(ratio, 2)}× the redirects/s of "${small.scenario}", ` +
            `spending ${fmt(large.linklet.cpuUs, 1)} µs of CPU per request (${fmt(large.linklet.eventLoopUs, 1)} on the event loop) ` +
            `against ${fmt(small.linklet.cpuUs, 1)} (${fmt(small.linklet.eventLoopUs, 1)}); CPU ratio ${fmt(cpuRatio(large, small), 2)} ` +
            (target === undefined ? '(no target)' : `(target ≥ ${target}×: ${verdict(ratio, target)})`),
        );
      }
      for (const { on, off, what, feature } of ON_OFF_PAIRS) {
        const [onRow, offRow] = [find(on), find(off)];
        if (!onRow || !offRow) continue;
        const ratio = rpsRatio(onRow, offRow);
        notes.push(
          `${prefix} ${what} on served ${fmt(ratio, 3)}× the redirects/s of ${feature} off (target ≥ 0.95: ${verdict(ratio, 0.95)})`,
        );
      }
      const [ruled, plain] = [find('redirect-rules-3'), find('redirect-rules-none')];
      if (ruled && plain) {
        const ratio = cpuRatio(ruled, plain);
        notes.push(
          `${prefix} links with 3 rules (the last matching) served ${fmt(rpsRatio(ruled, plain), 3)}× the redirects/s of links without ` +
            `(${fmt(ruled.linklet.rps)} against ${fmt(plain.linklet.rps)}), CPU ${fmt(ruled.linklet.cpuUs, 1)} against ${fmt(plain.linklet.cpuUs, 1)} µs a request; ` +
            `CPU ratio ${fmt(ratio, 3)} (target ≥ 0.9: ${verdict(ratio, 0.9)})`,
        );
      }
    }
  }
  return notes;
}
