/**
 * Whether a Shlink `domain` names Linklet's one domain: absent or empty (Shlink's default
 * domain), `DEFAULT` (what its clients send for the default domain), or this server's host in
 * any ASCII case. The one rule of every endpoint that takes a domain, so a list, a single short
 * URL and a domain's visits never disagree on which links a domain holds.
 */
export function isOurDomain(domain: string | null | undefined, host: string): boolean {
  return (
    domain === undefined || domain === null || domain === '' || domain === 'DEFAULT' || domain.toLowerCase() === host
  );
}
