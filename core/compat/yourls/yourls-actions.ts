import type { Caller } from '../../management/owners/authenticate.js';
import type { YourlsAction, YourlsContext } from './yourls-context.js';
import type { YourlsResult } from './yourls-format.js';
import { expandAction, urlStatsAction } from './yourls-link-actions.js';
import type { YourlsParams } from './yourls-params.js';
import { shortUrlAction } from './yourls-shorturl.js';
import { dbStatsAction, statsAction } from './yourls-stats.js';

/**
 * The YOURLS version Linklet answers as: the release whose `yourls-api.php` and
 * `includes/functions-api.php` these actions follow. Clients compare it to decide what to call.
 */
export const YOURLS_VERSION = '1.10.4';

const versionAction: YourlsAction = async () => ({
  status: 200,
  body: { version: YOURLS_VERSION },
  simple: YOURLS_VERSION,
});

/** YOURLS's standard actions, by the name of `action`. */
export const YOURLS_ACTIONS = {
  shorturl: shortUrlAction,
  expand: expandAction,
  'url-stats': urlStatsAction,
  stats: statsAction,
  'db-stats': dbStatsAction,
  version: versionAction,
} as const satisfies Record<string, YourlsAction>;

const UNKNOWN_ACTION = `Unknown or missing "action" parameter; use one of ${Object.keys(YOURLS_ACTIONS).join(', ')}.`;

/** Runs the request's `action`, or answers YOURLS's 400 for an action it does not have. */
export function runYourlsAction(
  params: YourlsParams,
  caller: Caller | undefined,
  context: YourlsContext,
): Promise<YourlsResult> {
  const name = params.get('action') ?? '';
  const action = Object.hasOwn(YOURLS_ACTIONS, name) ? YOURLS_ACTIONS[name as keyof typeof YOURLS_ACTIONS] : undefined;
  if (action === undefined) {
    return Promise.resolve({
      status: 400,
      body: { errorCode: '400', message: UNKNOWN_ACTION },
      simple: UNKNOWN_ACTION,
    });
  }
  return action(params, caller, context);
}
