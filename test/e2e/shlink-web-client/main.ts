import { ShlinkApiClient } from '@shlinkio/shlink-js-sdk';
import { FetchHttpClient } from '@shlinkio/shlink-js-sdk/fetch';
import { ShlinkWebComponent, type ShlinkWebComponentProps } from '@shlinkio/shlink-web-component';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';

// Shlink's own web client (the UI of app.shlink.io, published as @shlinkio/shlink-web-component)
// pointed at a Linklet server, as app.shlink.io is once a person adds the server and its API key.

const CONNECTION_STORAGE_KEY = 'shlink-server';

interface Connection {
  baseUrl: string;
  apiKey: string;
}

/**
 * The server and key: from `#server=…&key=…` on first load (then out of the address bar), kept in
 * sessionStorage so that a reload or a deep link within the tab still knows them.
 */
function readConnection(): Connection | undefined {
  const fromHash = new URLSearchParams(location.hash.slice(1));
  const baseUrl = fromHash.get('server');
  const apiKey = fromHash.get('key');
  if (baseUrl && apiKey) {
    sessionStorage.setItem(CONNECTION_STORAGE_KEY, JSON.stringify({ baseUrl, apiKey }));
    history.replaceState(null, '', location.pathname + location.search);
  }
  const stored = sessionStorage.getItem(CONNECTION_STORAGE_KEY);
  return stored === null ? undefined : (JSON.parse(stored) as Connection);
}

function showMessage(root: HTMLElement, text: string): void {
  const message = document.createElement('p');
  message.setAttribute('role', 'alert');
  message.textContent = text;
  root.replaceChildren(message);
}

async function mount(root: HTMLElement): Promise<void> {
  const connection = readConnection();
  if (connection === undefined) {
    showMessage(root, 'Open this page with #server=<Linklet server URL>&key=<API key>.');
    return;
  }
  const apiClient = new ShlinkApiClient(new FetchHttpClient(), connection);
  // As app.shlink.io does: the health check says which Shlink version the server speaks, and the
  // client shows the features of that version.
  let version: string;
  try {
    ({ version } = await apiClient.health());
  } catch (error) {
    showMessage(root, `${connection.baseUrl} did not answer Shlink's health check: ${String(error)}`);
    return;
  }
  const props: ShlinkWebComponentProps = {
    apiClient,
    serverVersion: version as ShlinkWebComponentProps['serverVersion'],
    routesPrefix: '',
    // No settings: the client's defaults, as a fresh app.shlink.io has them.
  };
  createRoot(root).render(createElement(BrowserRouter, null, createElement(ShlinkWebComponent, props)));
}

const root = document.getElementById('root');
if (root !== null) void mount(root);
