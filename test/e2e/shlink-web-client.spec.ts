import { expect, makeLink, test, visit } from './shlink-web-client-fixtures.js';

// Shlink's own web client (@shlinkio/shlink-web-component, the UI of app.shlink.io), built from
// test/e2e/shlink-web-client/ and served from another origin, driven against a real Linklet server
// through Linklet's Shlink REST API. What it shows is checked against what Linklet's own API made.

test('the short URLs list shows the links made on the server: titles, tags, visit counts; search and tag filter', async ({
  openClient,
  server,
  aliceKey,
  site,
  chromiumBrowser,
}) => {
  const docs = await makeLink(server, aliceKey, {
    code: 'guide',
    url: site.url('/docs'),
    title: 'Linklet docs',
    tags: ['work', 'reading'],
  });
  const plain = await makeLink(server, aliceKey, { code: 'plain', url: site.url('/plain') });
  // Another owner's link: the client, acting with Alice's key, never sees it.
  await makeLink(server, await server.createKey('bob'), { code: 'bobs', url: site.url('/bob'), title: 'Bob’s' });
  await visit(chromiumBrowser, server, aliceKey, { shortUrl: docs, times: 2 });
  const client = await openClient('/list-short-urls/1');

  const rows = client.getByRole('table').getByRole('row');
  await expect(rows).toHaveCount(3); // the header and Alice's two links
  const docsRow = client.getByRole('row', { name: docs });
  await expect(docsRow.getByRole('link', { name: 'Linklet docs' })).toHaveAttribute('href', site.url('/docs'));
  await expect(docsRow.getByRole('button', { name: 'work', exact: true })).toBeVisible();
  await expect(docsRow.getByRole('button', { name: 'reading', exact: true })).toBeVisible();
  await expect(docsRow.getByRole('link', { name: '2', exact: true })).toBeVisible();
  const plainRow = client.getByRole('row', { name: plain });
  await expect(plainRow.getByRole('link', { name: site.url('/plain') })).toBeVisible();
  await expect(plainRow.getByRole('link', { name: '0', exact: true })).toBeVisible();
  await expect(client.getByText('Bob’s')).toHaveCount(0);

  await client.getByRole('searchbox', { name: 'Search...' }).fill('plain');
  await expect(rows).toHaveCount(2);
  await expect(client.getByRole('row', { name: plain })).toBeVisible();
  await client.getByRole('searchbox', { name: 'Search...' }).fill('');
  await expect(rows).toHaveCount(3);

  await docsRow.getByRole('button', { name: 'reading', exact: true }).click();
  await expect(rows).toHaveCount(2);
  await expect(client.getByRole('row', { name: docs })).toBeVisible();
});

test('creates a short URL through its form with a custom slug, title and tags: a Linklet link that redirects', async ({
  openClient,
  server,
  aliceKey,
  site,
}) => {
  const client = await openClient('/list-short-urls/1');
  await client.getByRole('link', { name: 'Create short URL' }).click();
  await client.getByRole('textbox', { name: 'URL to be shortened' }).fill(site.url('/made-in-shlink'));
  await client.getByRole('textbox', { name: 'Title' }).fill('Made in Shlink’s client');
  await client.getByRole('textbox', { name: 'Custom slug' }).fill('from-shlink');
  const tags = client.getByRole('combobox', { name: 'Add tags to the URL' });
  for (const tag of ['shlink', 'e2e']) {
    await tags.fill(tag);
    await tags.press('Enter');
  }
  // Everything else as the client sets it, as most people leave it: "Forward query params on
  // redirect" stays checked (Shlink's default), so the create carries `forwardQuery: true`, and
  // the link forwards a visit's query.
  await client.getByRole('button', { name: 'Save' }).click();
  const shortUrl = `${server.url}/from-shlink`;
  await expect(client.getByText(`Great! The short URL is ${shortUrl}`)).toBeVisible();

  expect(await server.resolve(shortUrl)).toEqual({ status: 302, location: site.url('/made-in-shlink') });
  const seen = await server.api('GET', '/api/v1/links/from-shlink', { key: aliceKey });
  expect(seen.body.data).toMatchObject({ title: 'Made in Shlink’s client', tags: ['shlink', 'e2e'] });

  await client.getByRole('link', { name: 'List short URLs' }).click();
  const row = client.getByRole('row', { name: shortUrl });
  await expect(row.getByRole('link', { name: 'Made in Shlink’s client' })).toHaveAttribute(
    'href',
    site.url('/made-in-shlink'),
  );
  await expect(row.getByRole('button', { name: 'shlink', exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: 'e2e', exact: true })).toBeVisible();
});

test('edits a short URL’s long URL, title and tags: the list and the redirect follow', async ({
  openClient,
  server,
  aliceKey,
  site,
}) => {
  const shortUrl = await makeLink(server, aliceKey, {
    code: 'moving',
    url: site.url('/before'),
    title: 'Before',
    tags: ['old', 'kept'],
  });
  const client = await openClient('/list-short-urls/1');
  await client.getByRole('row', { name: shortUrl }).getByRole('button', { name: 'Options' }).click();
  await client.getByRole('menuitem', { name: 'Edit short URL' }).click();

  const longUrl = client.getByRole('textbox', { name: 'URL to be shortened' });
  await expect(longUrl).toHaveValue(site.url('/before'));
  await expect(client.getByRole('textbox', { name: 'Title' })).toHaveValue('Before');
  await longUrl.fill(site.url('/after'));
  await client.getByRole('textbox', { name: 'Title' }).fill('After');
  await client.getByRole('button', { name: 'Remove old' }).click();
  const tags = client.getByRole('combobox', { name: 'Add tags to the URL' });
  await tags.fill('new');
  await tags.press('Enter');
  await client.getByRole('button', { name: 'Save' }).click();
  await expect(client.getByText('Short URL properly edited.')).toBeVisible();

  expect(await server.resolve(shortUrl)).toEqual({ status: 302, location: site.url('/after') });
  await client.getByRole('link', { name: 'List short URLs' }).click();
  const row = client.getByRole('row', { name: shortUrl });
  await expect(row.getByRole('link', { name: 'After' })).toHaveAttribute('href', site.url('/after'));
  await expect(row.getByRole('button', { name: 'kept', exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: 'new', exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: 'old', exact: true })).toHaveCount(0);
});

test('the visits page of a followed link shows its visits: count, date, referrer; browser and OS', async ({
  openClient,
  server,
  aliceKey,
  site,
  chromiumBrowser,
}) => {
  const shortUrl = await makeLink(server, aliceKey, { code: 'popular', url: site.url('/popular'), title: 'Popular' });
  await visit(chromiumBrowser, server, aliceKey, { shortUrl, times: 3, referer: 'https://news.example.com/today' });
  const client = await openClient('/list-short-urls/1');
  await client.getByRole('row', { name: shortUrl }).getByRole('link', { name: '3', exact: true }).click();

  await expect(client.getByRole('heading', { name: `Visits for ${shortUrl} Visits: 3` })).toBeVisible();
  await client.getByRole('menuitem', { name: 'List' }).click();
  const visits = client.getByRole('table').getByRole('row').filter({ hasText: shortUrl });
  await expect(visits).toHaveCount(3);
  const today = new Date().toISOString().slice(0, 10);
  for (const row of await visits.all()) {
    await expect(row.getByRole('cell', { name: 'news.example.com' })).toBeVisible();
    await expect(row.getByRole('time')).toContainText(today);
    // The client parses each visit's kept User-Agent (the visitors' desktop Chrome on Linux).
    await expect(row.getByRole('cell', { name: 'Chrome', exact: true })).toBeVisible();
    await expect(row.getByRole('cell', { name: 'Linux', exact: true })).toBeVisible();
  }
  await client.getByRole('menuitem', { name: 'By context' }).click();
  await expect(client.getByRole('application').filter({ hasText: 'news.example.com' })).toBeVisible();
});

test('the overview counts the visits, short URLs and tags, lists the newest links, and its Visits card every visit', async ({
  openClient,
  server,
  aliceKey,
  site,
  chromiumBrowser,
}) => {
  const first = await makeLink(server, aliceKey, { code: 'first', url: site.url('/first'), tags: ['a', 'b'] });
  const second = await makeLink(server, aliceKey, { code: 'second', url: site.url('/second'), tags: ['b', 'c'] });
  await visit(chromiumBrowser, server, aliceKey, { shortUrl: first, times: 2 });
  await visit(chromiumBrowser, server, aliceKey, { shortUrl: second, times: 1 });
  const client = await openClient('/list-short-urls/1');
  await client.getByRole('link', { name: 'Overview' }).click();

  await expect(client.getByRole('link', { name: 'Visits 3' })).toBeVisible();
  await expect(client.getByRole('link', { name: 'Short URLs 2' })).toBeVisible();
  await expect(client.getByRole('link', { name: 'Tags 3' })).toBeVisible();
  await expect(client.getByRole('heading', { name: 'Recently created URLs' })).toBeVisible();
  const recent = client.getByRole('table').getByRole('row');
  await expect(recent.nth(1)).toContainText(second);
  await expect(recent.nth(2)).toContainText(first);

  // The Visits card opens the visits of every short URL, newest first, each naming its short URL.
  await client.getByRole('link', { name: 'Visits 3' }).click();
  await client.getByRole('menuitem', { name: 'List' }).click();
  const visits = client.getByRole('table').getByRole('row');
  await expect(visits.filter({ hasText: first })).toHaveCount(2);
  await expect(visits.filter({ hasText: second })).toHaveCount(1);
});

test('renames a tag and deletes another on the tags page: every one of the owner’s links follows', async ({
  openClient,
  server,
  aliceKey,
  site,
}) => {
  await makeLink(server, aliceKey, { code: 'tag-a', url: site.url('/a'), tags: ['work', 'news'] });
  await makeLink(server, aliceKey, { code: 'tag-b', url: site.url('/b'), tags: ['news'] });
  const tagsOf = async (code: string) =>
    (await server.api('GET', `/api/v1/links/${code}`, { key: aliceKey })).body.data.tags as string[];
  const client = await openClient('/manage-tags');
  const rowOf = (tag: string) => client.getByRole('row').filter({ has: client.getByText(tag, { exact: true }) });

  await rowOf('news').getByRole('button', { name: 'Options' }).click();
  await client.getByRole('menuitem', { name: 'Edit' }).click();
  const editing = client.getByRole('dialog').filter({ has: client.getByRole('heading', { name: 'Edit tag' }) });
  await editing.getByRole('textbox', { name: 'Tag', exact: true }).fill('reading');
  await editing.getByRole('button', { name: 'Save' }).click();
  await expect(rowOf('reading')).toBeVisible();
  await expect(rowOf('news')).toHaveCount(0);
  expect(await tagsOf('tag-a')).toEqual(['work', 'reading']);
  expect(await tagsOf('tag-b')).toEqual(['reading']);

  await rowOf('work').getByRole('button', { name: 'Options' }).click();
  await client.getByRole('menuitem', { name: 'Delete tag' }).click();
  await client.getByRole('dialog').getByRole('button', { name: 'Delete tag' }).click();
  await expect(rowOf('work')).toHaveCount(0);
  expect(await tagsOf('tag-a')).toEqual(['reading']);
});

test('deletes a short URL’s visits from its visits page: the counts start again from zero', async ({
  openClient,
  server,
  aliceKey,
  site,
  chromiumBrowser,
}) => {
  const shortUrl = await makeLink(server, aliceKey, { code: 'counted', url: site.url('/counted') });
  await visit(chromiumBrowser, server, aliceKey, { shortUrl, times: 2 });
  const client = await openClient('/list-short-urls/1');
  await client.getByRole('row', { name: shortUrl }).getByRole('link', { name: '2', exact: true }).click();
  await expect(client.getByRole('heading', { name: `Visits for ${shortUrl} Visits: 2` })).toBeVisible();
  await client.getByRole('menuitem', { name: 'Options' }).click();
  await client.getByRole('button', { name: 'Delete visits' }).click();
  await client.getByRole('button', { name: 'Click again to confirm' }).click();
  await expect(client.getByRole('heading', { name: `Visits for ${shortUrl} Visits: 0` })).toBeVisible();
  const link = (await server.api('GET', '/api/v1/links/counted', { key: aliceKey })).body.data;
  expect(link.clicks).toBe(0);
  const visits = (await server.api('GET', '/api/v1/links/counted/visits', { key: aliceKey })).body.data.visits;
  expect(visits).toEqual([]);
});

/** A visitor's `GET` of a short URL with this User-Agent, not followed: where it is sent. */
async function sentTo(shortUrl: string, userAgent: string): Promise<{ status: number; location: string | null }> {
  const response = await fetch(shortUrl, { redirect: 'manual', headers: { 'User-Agent': userAgent } });
  await response.body?.cancel();
  return { status: response.status, location: response.headers.get('location') };
}
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

test('edits a short URL’s limit, forwarding and redirect rules: visitors are sent as the rules say', async ({
  openClient,
  server,
  aliceKey,
  site,
}) => {
  const shortUrl = await makeLink(server, aliceKey, { code: 'ruled', url: site.url('/default') });
  const client = await openClient('/list-short-urls/1');
  const options = async () => {
    await client.getByRole('link', { name: 'List short URLs' }).click();
    await client.getByRole('row', { name: shortUrl }).getByRole('button', { name: 'Options' }).click();
  };

  // The edit page: a visit limit and query forwarding.
  await client.getByRole('row', { name: shortUrl }).getByRole('button', { name: 'Options' }).click();
  await client.getByRole('menuitem', { name: 'Edit short URL' }).click();
  await client.getByRole('spinbutton', { name: 'Maximum visits allowed:' }).fill('3');
  const forwarding = client.getByRole('checkbox', { name: 'Forward query params on redirect' });
  await expect(forwarding).not.toBeChecked();
  await forwarding.check();
  await client.getByRole('button', { name: 'Save' }).click();
  await expect(client.getByText('Short URL properly edited.')).toBeVisible();
  const edited = (await server.api('GET', '/api/v1/links/ruled', { key: aliceKey })).body.data;
  expect(edited).toMatchObject({ max_visits: 3, forward_query: true, redirect_rules: [] });

  // The redirect rules page: Android phones go elsewhere.
  await options();
  await client.getByRole('menuitem', { name: 'Manage redirect rules' }).click();
  await expect(client.getByText('This short URL has no dynamic redirect rules')).toBeVisible();
  await client.getByRole('button', { name: 'Add rule' }).click();
  const rule = client.getByRole('dialog');
  await rule.getByRole('textbox', { name: 'Long URL:' }).fill(site.url('/android'));
  await rule.getByRole('button', { name: 'Add condition' }).click();
  await rule.getByRole('combobox', { name: 'Type:', exact: true }).selectOption('device');
  await rule.getByRole('combobox', { name: 'Device type:' }).selectOption('android');
  await rule.getByRole('button', { name: 'Confirm' }).click();
  await client.getByRole('button', { name: 'Save rules' }).click();
  await expect(client.getByText('Redirect rules properly saved.')).toBeVisible();
  const ruled = (await server.api('GET', '/api/v1/links/ruled', { key: aliceKey })).body.data;
  expect(ruled.redirect_rules).toEqual([
    { target_url: site.url('/android'), conditions: [{ type: 'device', value: 'android' }] },
  ]);

  // Visitors go where the rules say, the visit's query along.
  expect(await sentTo(`${shortUrl}?from=mail`, ANDROID)).toEqual({
    status: 302,
    location: site.url('/android?from=mail'),
  });
  expect(await sentTo(shortUrl, DESKTOP)).toEqual({ status: 302, location: site.url('/default') });
  expect(await sentTo(`${shortUrl}?from=chat`, DESKTOP)).toEqual({
    status: 302,
    location: site.url('/default?from=chat'),
  });
  // Three visits were allowed: the fourth is answered like an expired link, never the target.
  expect((await sentTo(shortUrl, ANDROID)).status).toBe(410);
});
