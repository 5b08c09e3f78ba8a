import closeWithGrace from 'close-with-grace';
import { buildApp } from './app';
import { loadConfig } from './config';
import { stdoutLines } from './log-lines';

// Lines logged in the turn that exits would otherwise wait for a turn that never comes.
process.on('exit', stdoutLines.flush);

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp(config);

  // SIGTERM/SIGINT: stop accepting, let requests in flight finish, close the database last.
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'closing after an error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
  });

  await app.listen({ host: config.host, port: config.port });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
