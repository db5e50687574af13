/** What the commands that listen (serve, ui) share: the stop signal, and why a port could not be had. */

/** Resolves on the first SIGINT or SIGTERM; a second one exits at once. */
export const shutdownSignal = () =>
  new Promise<NodeJS.Signals>((resolveSignal) => {
    const first = (signal: NodeJS.Signals) => {
      process.off('SIGINT', first).off('SIGTERM', first);
      process.once('SIGINT', () => process.exit(130)).once('SIGTERM', () => process.exit(143));
      resolveSignal(signal);
    };
    process.on('SIGINT', first).on('SIGTERM', first);
  });

/** A message for a listen error a user can act on (a busy or forbidden port, an unknown host), else undefined. */
export function listenFailure(error: unknown, host: string, port: number): string | undefined {
  const { code, message } = error as NodeJS.ErrnoException;
  if (code === 'EADDRINUSE') return `port ${port} is in use; pass --port 0 for a free one`;
  if (code === 'EACCES' || code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `cannot listen on ${host}:${port}: ${message}`;
  return undefined;
}
