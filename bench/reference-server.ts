// The yardstick of bench/api-load.ts: a bare Fastify answering an empty route, on the same runtime.
import Fastify from 'fastify';

const app = Fastify();
app.get('/', async () => ({}));
app.listen({ host: '127.0.0.1', port: 0 }).then((address) => console.log(`Server listening at ${address}`));
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
