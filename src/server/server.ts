import { setTimeout as sleep } from 'node:timers/promises';
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app';
import { loadConfig } from './config';
import { stdoutLines } from './log-lines';

// Lines logged in the turn that exits would otherwise wait for a turn that never comes.
process.on('exit', stdoutLines.flush);

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp(config);

  // SIGTERM/SIGINT: say "not ready" to balancers for SHUTDOWN_DRAIN_SECONDS while still serving,
  // then stop accepting, let requests in flight finish, close the database last.
  closeWithGrace({ delay: config.shutdownDrainMs + 10_000 }, async ({ signal, err }) => {
    if (err) {
      app.log.error({ err }, 'closing after an error');
    } else {
      app.log.info({ signal, drainMs: config.shutdownDrainMs }, 'shutting down');
      app.startDraining();
      if (config.shutdownDrainMs > 0) await sleep(config.shutdownDrainMs);
      // The listener first, at once, and the connections it had accepted served to their end. Fastify's
      // close stops accepting only after its preClose hooks, meanwhile answering every request with its
      // own 503: a request a balancer had just sent there failed, and only refused ones are resent.
      await new Promise<void>((resolve) => app.server.close(() => resolve()));
    }
    await app.close();
  });

  await app.listen({ host: config.host, port: config.port });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
