import type { ApiCall } from './linklet-api.js';

/** Every runtime message the extension's parts exchange; `type` tells them apart. */
export type LinkletMessage =
  | ApiCall
  | { type: 'linklet:fetch'; request: SerializedRequest }
  | { type: 'linklet:copy'; text: string };

export interface SerializedRequest {
  url: string;
  method: string;
  headers: [string, string][];
  body?: string;
}

export interface SerializedResponse {
  status: number;
  headers: [string, string][];
  body: string;
}

export function isLinkletMessage(message: unknown): message is LinkletMessage {
  return (
    typeof message === 'object' &&
    message !== null &&
    typeof (message as { type?: unknown }).type === 'string' &&
    (message as { type: string }).type.startsWith('linklet:')
  );
}
