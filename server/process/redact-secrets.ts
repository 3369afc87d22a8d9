/** What a secret is replaced with in messages and log lines. */
export const REDACTED = '***';

// Query parameters of a libpq URL that carry a secret (`password`, `sslpassword`).
const SECRET_PARAMETER = /password/i;
// A secret this short would blank out ordinary words; the URL form is still redacted by position.
const MIN_FREE_TEXT_SECRET = 4;

/**
 * A PostgreSQL URL fit to be shown: the password of its user part and every `…password=`
 * parameter replaced, so an error can still name the host and database it was about.
 */
export function redactConnectionString(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    if (url.password) url.password = REDACTED;
    for (const name of [...url.searchParams.keys()]) {
      if (SECRET_PARAMETER.test(name)) url.searchParams.set(name, REDACTED);
    }
    return url.toString().replaceAll(encodeURIComponent(REDACTED), REDACTED);
  } catch {
    // Not a URL the parser takes: blank out anything that looks like a password.
    return connectionString
      .replace(/(\/\/[^:/@]*:)[^@]*@/, `$1${REDACTED}@`)
      .replace(/(password=)[^&#]*/gi, `$1${REDACTED}`);
  }
}

/**
 * The secrets of a configuration, as given in the environment: the PostgreSQL password of
 * `DATABASE_URL` (in its user part or as `?password=`) and `API_KEY`. Read from the raw
 * environment so that even a start that fails before the configuration is whole is redacted.
 */
export function secretsOf(env: Record<string, string | undefined>): string[] {
  const secrets: string[] = [];
  const databaseUrl = env.DATABASE_URL ?? '';
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    try {
      const url = new URL(databaseUrl);
      secrets.push(url.password);
      for (const [name, value] of url.searchParams) if (SECRET_PARAMETER.test(name)) secrets.push(value);
    } catch {
      // An unparseable URL: `redactConnectionString` still blanks its password by position.
    }
  }
  if (env.API_KEY) secrets.push(env.API_KEY);
  return secrets;
}

/**
 * A function that blanks every spelling of the secrets in a text: as given, percent-decoded and
 * -encoded, and escaped inside a JSON string (as a log line holds it). With no secrets it is the
 * identity, so a server without any costs nothing per log line.
 */
export function createRedactor(secrets: readonly string[]): (text: string) => string {
  const spellings = new Set<string>();
  for (const secret of secrets) {
    for (const spelling of [secret, safeDecode(secret), encodeURIComponent(secret)]) {
      if (spelling.length < MIN_FREE_TEXT_SECRET) continue;
      spellings.add(spelling);
      spellings.add(JSON.stringify(spelling).slice(1, -1));
    }
  }
  // Longest first, so a secret that contains another is blanked whole.
  const ordered = [...spellings].sort((a, b) => b.length - a.length);
  if (ordered.length === 0) return (text) => text;
  return (text) => {
    let result = text;
    for (const spelling of ordered) if (result.includes(spelling)) result = result.replaceAll(spelling, REDACTED);
    return result;
  };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
