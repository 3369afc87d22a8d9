import type { AgentFacts } from '../../rules/agent-facts.js';

const squeeze = (name: string | null) => (name === null ? '' : name.toLowerCase().replace(/\s+/g, ''));

/** An agent's OS and browser as the conditions compare them, worked out once per facts object (the parser shares them). */
const keysOf = new WeakMap<AgentFacts, { os: string; browser: string }>();
function agentKeys(facts: AgentFacts): { os: string; browser: string } {
  let keys = keysOf.get(facts);
  if (keys === undefined) {
    keys = { os: squeeze(facts.os), browser: squeeze(facts.browser) };
    keysOf.set(facts, keys);
  }
  return keys;
}

/** The OS (bowser's name, squeezed) each OS-named `device` value stands for. */
const DEVICE_OS: Readonly<Record<string, string>> = {
  android: 'android',
  ios: 'ios',
  windows: 'windows',
  macos: 'macos',
  linux: 'linux',
  chromeos: 'chromeos',
};

/**
 * Whether a visitor's agent is the `device` a condition names: an OS (`android`, `ios`,
 * `windows`, `macos`, `linux`, `chromeos`), or a kind (`mobile`: phones and tablets, `desktop`).
 */
export function isDevice(facts: AgentFacts, device: string): boolean {
  if (device === 'mobile') return facts.device === 'mobile' || facts.device === 'tablet';
  if (device === 'desktop') return facts.device === 'desktop';
  const os = DEVICE_OS[device];
  return os !== undefined && agentKeys(facts).os === os;
}

/** Bowser's names (squeezed) of each `browser` value: Chromium counts as Chrome. */
const BROWSER_NAMES: Readonly<Record<string, readonly string[]>> = {
  chrome: ['chrome', 'chromium'],
  firefox: ['firefox'],
  edge: ['microsoftedge', 'edge'],
  safari: ['safari'],
  opera: ['opera'],
};

/** Whether a visitor's agent is the `browser` a condition names. */
export function isBrowser(facts: AgentFacts, browser: string): boolean {
  return BROWSER_NAMES[browser]?.includes(agentKeys(facts).browser) === true;
}
