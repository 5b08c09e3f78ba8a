// The yardstick of bench/api-load.ts: a bare Fastify answering an empty route, on the same runtime.
import Fastify from 'fastify';

const app = Fastify();
app.get('/', async () => ({}));
void app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
