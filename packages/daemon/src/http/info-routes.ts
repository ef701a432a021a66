import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { DaemonContext } from '../context.js';
import { status } from '../control/api.js';

/**
 * The daemon's own GET endpoints. None carries the `x-routeplane-*` headers:
 * they are not proxied requests.
 */
export function registerInfoRoutes(app: FastifyInstance, ctx: DaemonContext, requireToken: onRequestHookHandler | undefined): void {
  app.get('/healthz', (_request, reply) => {
    reply.type('application/json').send('{"ok":true}');
  });

  const guarded = requireToken === undefined ? {} : { onRequest: requireToken };
  app.get('/status', guarded, (_request, reply) => {
    reply.type('application/json').send(JSON.stringify(status(ctx)));
  });

  // Routes never change while the daemon runs: serialise the list once.
  const models = JSON.stringify(modelList(ctx));
  app.get('/v1/models', guarded, (_request, reply) => {
    reply.type('application/json').send(models);
  });
}

/** The routes in OpenAI's list shape: what agents may send as `model`. */
function modelList(ctx: DaemonContext): object {
  const created = Math.floor(ctx.startedAt / 1000);
  return {
    object: 'list',
    data: [...ctx.routes.keys()].map((id) => ({ id, object: 'model', created, owned_by: 'routeplane' })),
  };
}
