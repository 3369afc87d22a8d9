import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { Answer } from '../../core/answer.js';
import { errorAnswer } from '../../core/error-answer.js';
import { LinkletError } from '../../core/errors.js';
import type { FetchHandler } from '../../core/handler.js';
import type { RequestLog } from './request-log.js';

/** A core `Answer` as a web `Response`. */
export const toResponse = (answer: Answer): Response =>
  new Response(answer.body, { status: answer.status, headers: answer.headers });

/**
 * Serves the core's fetch handler over Node through @hono/node-server, which only converts: the
 * request's id travels to the handler in its `env` (so a failure the handler reports is logged
 * under the id the client is sent), and the answer is logged like every other path's.
 */
export function createWebAdapter(
  handler: FetchHandler,
  log: RequestLog,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return getRequestListener(
    async (request) => {
      const trace = log.begin(request.method, new URL(request.url).pathname, request.headers.get('x-request-id'));
      const response = await handler(request, { requestId: trace.id });
      response.headers.set('X-Request-Id', trace.id);
      log.answered(trace, response.status);
      return response;
    },
    {
      // Requests Node cannot even turn into a Request (a bad Host, say) still get the envelope.
      errorHandler: (error) => {
        log.failed(error, 'warn', undefined);
        return toResponse(errorAnswer(new LinkletError('invalid', 'The request could not be read.', { cause: error })));
      },
    },
  );
}
