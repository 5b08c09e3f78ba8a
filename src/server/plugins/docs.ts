import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';

/** The OpenAPI document is generated from the routes' TypeBox schemas: one source for both. */
// Registered before the routes: @fastify/swagger collects each route as it is added.
export default fp(
  async (app) => {
    await app.register(fastifySwagger, {
      openapi: {
        info: {
          title: 'API магазина «Мягкий Опт»',
          version: '1.0.0',
          description:
            'Вызовы витрины: SPEC §7. Каждая ошибка — JSON `{"detail": "…"}`. Метод, которого адрес не принимает, — ' +
            '405 с заголовком Allow (допустимые методы). До маршрута сервер отвечает 431 на слишком большие ' +
            'заголовки, 400 на искажённый запрос (строка запроса, заголовки, HTTP/1.1 без Host) и 408 на ' +
            'слишком медленный запрос.',
        },
        components: {
          securitySchemes: {
            bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
            metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN' },
          },
        },
      },
    });
    await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  },
  { name: 'docs' },
);
