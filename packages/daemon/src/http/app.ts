import { randomUUID } from 'node:crypto';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type onRequestHookHandler,
} from 'fastify';
import type { DaemonContext } from '../context.js';
import { routeplaneHeaders } from '../proxy/agent-response.js';
import { errorBody, errorStatus, type DaemonErrorKind } from '../proxy/error-shapes.js';
import { familyOfPath } from '../proxy/family.js';
import { readAgentBodyBytes } from './agent-body-reader.js';
import type { AgentIdentity } from './auth.js';
import { clientErrorResponse } from './client-error.js';
import { registerInfoRoutes } from './info-routes.js';
import { ProxyHandler } from './proxy-handler.js';

/**
 * The agents' HTTP side: `POST /v1/*` proxied, `/healthz`, `/status` and
 * `GET /v1/models` answered by the daemon. Everything is prepared here, once;
 * the request path only looks things up.
 */
export function buildHttpApp(ctx: DaemonContext): FastifyInstance {
  const bodyLimitMb = ctx.config.server.body_limit_mb;
  const bodyLimit = Math.floor(bodyLimitMb * 1024 * 1024);
  const app = Fastify({
    logger: false,
    bodyLimit,
    // request ids are ours (x-routeplane-request-id); never trust an agent's header for them
    requestIdHeader: false,
    clientErrorHandler: clientErrorResponse,
  });

  // The body is read once, as bytes, whatever the agent called it (agents may omit
  // content-type): the proxy validates the JSON itself and forwards the same bytes.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => readAgentBodyBytes(payload, bodyLimit, done));

  // onRequest runs before the body is read: an agent without a token cannot make us buffer one.
  // The routing (and so the tokens) is read per request: a reload may change them.
  app.decorateRequest('agent', null);
  const proxyAuth: onRequestHookHandler = (request, reply, done) => {
    const tokens = ctx.routing.tokens;
    if (tokens === null) return done();
    const found = tokens.identify(request.headers);
    if (found === null) return sendProxyError(request, reply, 'unauthorized', UNAUTHORIZED);
    request.agent = found.agent;
    // the token is ours: off the request before anything reads what the agent sent for a seat
    for (const name of found.via) delete request.headers[name];
    done();
  };
  const infoAuth: onRequestHookHandler = (request, reply, done) => {
    const tokens = ctx.routing.tokens;
    if (tokens === null || tokens.identify(request.headers) !== null) return done();
    sendPlainError(reply, 'unauthorized', UNAUTHORIZED);
  };

  registerInfoRoutes(app, ctx, infoAuth);

  const proxy = new ProxyHandler(ctx);
  app.post('/v1/*', { onRequest: proxyAuth }, proxy.handle);
  app.addHook('onClose', async () => proxy.close());

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? request.url;
    if (path.startsWith('/v1/') && request.method !== 'POST') {
      reply.header('allow', 'POST');
      sendFamilyError(reply, familyOfPath(path), 'method_not_allowed', `${request.method} ${path} is not supported: agents POST to /v1/*`);
      return;
    }
    sendPlainError(reply, 'unknown_path', `no such endpoint: ${request.method} ${path}`);
  });

  // Errors raised before our handlers run: body over the limit, a malformed
  // content-type, a body shorter than its content-length, …
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const kind = errorKindOf(err.statusCode);
    const message =
      kind === 'too_large' ? `request body is larger than server.body_limit_mb (${bodyLimitMb} MB)` : describeClientError(kind);
    if (isProxiedPost(request)) sendProxyError(request, reply, kind, message);
    else sendPlainError(reply, kind, message);
  });

  return app;
}

const UNAUTHORIZED =
  'missing or wrong routeplane token (send it as "x-routeplane-token: <token>", "Authorization: Bearer <token>" or "x-api-key: <token>")';

function isProxiedPost(request: FastifyRequest): boolean {
  return request.method === 'POST' && request.url.startsWith('/v1/');
}

function errorKindOf(statusCode: number | undefined): DaemonErrorKind {
  if (statusCode === 413) return 'too_large';
  if (statusCode === 415) return 'unsupported_media_type';
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) return 'bad_request';
  return 'internal';
}

function describeClientError(kind: DaemonErrorKind): string {
  switch (kind) {
    case 'unsupported_media_type':
      return 'the content-type header could not be parsed';
    case 'bad_request':
      return 'the request could not be read (body shorter or longer than its content-length?)';
    default:
      return 'routeplane could not handle this request';
  }
}

/** A proxied `POST /v1/*` refused before anything was sent: family shape, routeplane headers, no decision. */
function sendProxyError(request: FastifyRequest, reply: FastifyReply, kind: DaemonErrorKind, message: string): void {
  reply.headers(routeplaneHeaders(randomUUID(), 0, null));
  sendFamilyError(reply, familyOfPath(request.url), kind, message);
}

function sendFamilyError(reply: FastifyReply, family: 'openai' | 'anthropic', kind: DaemonErrorKind, message: string): void {
  reply
    .code(errorStatus(kind))
    .type('application/json')
    .send(errorBody(family, kind, message));
}

/** Not a proxied request: no family to speak, so OpenAI's shape (what `/v1/models` speaks too). */
function sendPlainError(reply: FastifyReply, kind: DaemonErrorKind, message: string): void {
  sendFamilyError(reply, 'openai', kind, message);
}

declare module 'fastify' {
  interface FastifyRequest {
    /** who sent it, when agents or a token are configured (set by the auth hook) */
    agent: AgentIdentity | null;
  }
}
