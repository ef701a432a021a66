import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { DaemonContext } from '../context.js';
import { status } from '../control/api.js';
import type { Routing } from '../proxy/routing.js';

/**
 * The daemon's own GET endpoints. None carries the `x-routeplane-*` headers:
 * they are not proxied requests.
 */
export function registerInfoRoutes(app: FastifyInstance, ctx: DaemonContext, requireToken: onRequestHookHandler): void {
  app.get('/healthz', (_request, reply) => {
    reply.type('application/json').send('{"ok":true}');
  });

  const guarded = { onRequest: requireToken };
  app.get('/status', guarded, (_request, reply) => {
    reply.type('application/json').send(JSON.stringify(status(ctx)));
  });

  app.get('/metrics', guarded, async (_request, reply) => {
    const { registry } = ctx.metrics;
    reply.type(registry.contentType).send(await registry.metrics());
  });

  // The list changes only with a reload: serialised once per routing.
  const lists = new WeakMap<Routing, string>();
  app.get('/v1/models', guarded, (_request, reply) => {
    const routing = ctx.routing;
    let models = lists.get(routing);
    if (models === undefined) {
      models = JSON.stringify(modelList(routing, ctx.startedAt));
      lists.set(routing, models);
    }
    reply.type('application/json').send(models);
  });
}

/** The routes and aliases in OpenAI's list shape: what agents may send as `model`. */
function modelList(routing: Routing, startedAt: number): object {
  const created = Math.floor(startedAt / 1000);
  return {
    object: 'list',
    data: routing.modelIds.map((id) => ({ id, object: 'model', created, owned_by: 'routeplane' })),
  };
}
