/**
 * Whether a form post comes from a page of Linklet's own origin (`origin`, BASE_URL's), as the
 * browser says: `Sec-Fetch-Site`, when sent, is `same-origin`, and `Origin`, when sent, is
 * `origin`. Any web page can post a form to a short URL (a cross-site `fetch` in `no-cors` mode
 * or a `<form>`), and such a post must not use up the visitor's password tries nor check a
 * password for that page. A client that sends neither header (curl, an API library) is not a
 * browser on someone else's page, and passes.
 *
 * `Origin: null` says nothing either way: a browser sends it for a POST from a page whose
 * `Referrer-Policy` is `no-referrer`, which the password page's own is (so its visits stay
 * `direct`). `Sec-Fetch-Site` (every current browser sends it) then decides; a browser too old
 * to send it is believed, as a client without headers is.
 */
export function isPostFromOwnOrigin(headers: Headers, origin: string): boolean {
  const site = headers.get('sec-fetch-site');
  if (site !== null && site.toLowerCase() !== 'same-origin') return false;
  const sentOrigin = headers.get('origin');
  return sentOrigin === null || sentOrigin === 'null' || sentOrigin.toLowerCase() === origin.toLowerCase();
}
