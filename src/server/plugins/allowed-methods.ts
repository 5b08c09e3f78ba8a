import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { methodNotAllowed } from '../api-error';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * For a request no route answers: a 405 error (with the `Allow` header set on the reply) when
     * its path is a route's under other methods, else undefined (it is a 404).
     */
    wrongMethod(request: FastifyRequest, reply: FastifyReply): Error | undefined;
  }
}

/**
 * RFC 9110 §15.5.6: a method a known path does not take is answered 405 with the methods it does
 * take, not 404 as if the path did not exist. The router is asked, for each method any route was
 * registered with, whether it has a route for the path.
 */
export default fp(
  async (app) => {
    const methods = new Set<string>();
    // Registered before the routes: it sees each one as it is added.
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) methods.add(method);
    });
    app.decorate('wrongMethod', (request: FastifyRequest, reply: FastifyReply) => {
      const path = request.url.split('?')[0]!;
      const allowed = [...methods].filter((method) => app.findRoute({ method, url: path }) !== null);
      if (allowed.length === 0 || allowed.includes(request.method)) return undefined;
      reply.header('allow', allowed.join(', '));
      return methodNotAllowed(request.method, allowed);
    });
  },
  { name: 'allowed-methods' },
);
